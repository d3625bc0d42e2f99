// Which POSTs honour Idempotency-Key is declared by each route (`idempotent: true`); this test holds those
// declarations to the spec's list (api-v3.md, Idempotency 5 and 6), so a path renamed on either side, or a
// route that forgets the flag, fails here instead of silently ignoring (or honouring) the header.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createTestApp } from '../helpers.ts';

const SPEC = path.join(import.meta.dirname, '..', '..', '..', 'shared', 'spec', 'api-v3.md');
const V3 = '/api/v3';

/** The spec's covered paths, as its Idempotency 5 (exact paths) and 6 (path shapes) list them. */
const COVERED = [
  ...['/agreements', '/budgets', '/calendar', '/client-groups', '/client-members', '/clients'],
  ...['/clients/bulk-member-action', '/contacts', '/content-templates', '/contracts', '/custom-fields'],
  ...['/delegations', '/digitizations', '/documents', '/flextime', '/folder-templates', '/folders'],
  ...['/integrations/reference-data/sync', '/invoice-sellers', '/invoices', '/members', '/monitors', '/notes'],
  ...['/product-fields', '/products', '/project-workflows', '/projects', '/roles', '/suppliers'],
  ...['/task-automations', '/task-relations', '/tasks', '/taxes', '/teams', '/time-entries', '/time-entries/bulk'],
  ...['/topics', '/workflow-roles', '/workflow-templates'],
  ...['/clients/{id}/documents-folder', '/clients/{id}/emails', '/clients/{id}/invoices', '/clients/{id}/monitors'],
  ...['/company/apps/{id}/activate', '/content-templates/{id}/rows', '/contracts/{id}/apply', '/contracts/{id}/rows'],
  ...['/contracts/{id}/rows/{id}/prices', '/invoices/{id}/export', '/invoices/{id}/mark-paid'],
  ...['/invoices/{id}/mark-unpaid', '/invoices/{id}/refresh-payment-status', '/invoices/{id}/rows'],
  ...['/invoices/{id}/send', '/members/{id}/agreements', '/notes/{id}/attachments', '/products/{id}/prices'],
  ...['/project-workflows/{id}/apply', '/project-workflows/{id}/push', '/project-workflows/{id}/tasks'],
  ...['/tasks/bulk-action', '/tasks/{id}/attachments', '/tasks/{id}/comments', '/tasks/{id}/complete'],
  ...['/tasks/{id}/reopen', '/webhooks/{id}/deliveries/{event_id}/replay', '/workflow-templates/{id}/apply'],
  ...['/workflow-templates/{id}/push', '/workflow-templates/{id}/tasks'],
];

/** One spelling for any path parameter: `{id}`, `{event_id}` and `:task_id` all read `{}`. */
const shape = (p: string) => p.replace(/\{\w+\}|:\w+/g, '{}').replace(/\/$/, '');
const covered = new Set(COVERED.map(shape));

const t = await createTestApp();
const v3Routes = t.app.routeTable.filter((r) => r.url.startsWith(`${V3}/`) && r.method !== 'HEAD');
const posts = new Set(v3Routes.filter((r) => r.method === 'POST').map((r) => shape(r.url.slice(V3.length))));

test('the list above is the spec’s own (when the spec is beside the repository)', (c) => {
  if (!existsSync(SPEC)) return c.diagnostic(`no spec at ${SPEC}: the copy above stands for it`);
  const text = readFileSync(SPEC, 'utf8');
  const items = text.split('\n').filter((line) => /^\d+\. Covered (exact paths|path shapes)/.test(line));
  assert.equal(items.length, 2, 'the spec names its covered paths in two items');
  const spec = items.flatMap((line) => [...line.matchAll(/`(\/[^`]+)`/g)].map((m) => shape(m[1]!)));
  assert.deepEqual([...new Set(spec)].sort(), [...covered].sort());
});

test('every covered path is a POST route of the service', () => {
  assert.deepEqual(
    [...covered].filter((p) => !posts.has(p)),
    [],
  );
});

test('a route declares idempotent exactly when the spec covers its path', () => {
  const wrong = v3Routes
    .filter(
      (r) => (r.config.idempotent ?? false) !== (r.method === 'POST' && covered.has(shape(r.url.slice(V3.length)))),
    )
    .map((r) => `${r.method} ${r.url}: idempotent ${r.config.idempotent ?? false}`);
  assert.deepEqual(wrong, []);
});
