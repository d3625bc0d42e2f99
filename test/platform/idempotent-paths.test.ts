// The idempotency list of src/platform/idempotent-paths.ts against the spec it copies (api-v3.md, Idempotency 5
// and 6) and against the routes the app registers: a path renamed on either side would silently stop (or start)
// honouring Idempotency-Key, which no other test notices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createTestApp } from '../helpers.ts';
import { EXACT, SHAPES } from '../../src/platform/idempotent-paths.ts';

const SPEC = path.join(import.meta.dirname, '..', '..', '..', 'shared', 'spec', 'api-v3.md');
const V3 = '/api/v3';

/**
 * Covered paths of resources the service does not offer yet (no route in the app); the spec lists them already.
 * When one is built its route must match, and it leaves this list.
 */
const NOT_BUILT = new Set([
  '/digitizations',
  '/folder-templates',
  '/folders',
  '/project-workflows',
  '/project-workflows/{}/apply',
  '/project-workflows/{}/push',
  '/project-workflows/{}/tasks',
]);

/** One spelling for any path parameter: `{id}`, `{event_id}` and `:task_id` all read `{}`. */
const shape = (p: string) => p.replace(/\{\w+\}|:\w+/g, '{}').replace(/\/$/, '');

/** The backticked paths of the spec's "Covered exact paths" and "Covered path shapes" items. */
function specPaths(): string[] {
  const text = readFileSync(SPEC, 'utf8');
  const section = text.slice(text.indexOf('### Idempotency'), text.indexOf('## Authentication'));
  const covered = section.split('\n').filter((line) => /^\d+\. Covered (exact paths|path shapes)/.test(line));
  assert.equal(covered.length, 2, 'the spec names its covered paths in two items');
  return covered.flatMap((line) => [...line.matchAll(/`(\/[^`]+)`/g)].map((m) => shape(m[1]!)));
}

const listed = [...EXACT, ...SHAPES].map(shape);
const t = await createTestApp();
const posts = new Set(
  t.app.routeTable
    .filter((r) => r.method === 'POST' && r.url.startsWith(`${V3}/`))
    .map((r) => shape(r.url.slice(V3.length))),
);

test(
  'idempotent-paths.ts lists exactly the covered paths of the spec',
  { skip: !existsSync(SPEC) && 'no spec' },
  () => {
    const spec = new Set(specPaths());
    assert.deepEqual(
      listed.filter((p) => !spec.has(p)),
      [],
      'listed but not covered by the spec',
    );
    assert.deepEqual(
      [...spec].filter((p) => !listed.includes(p)),
      [],
      'covered by the spec but not listed',
    );
  },
);

test('every listed path is a POST route of the app, but for resources not built yet', () => {
  assert.deepEqual(
    listed.filter((p) => !posts.has(p) && !NOT_BUILT.has(p)),
    [],
    'listed path without a POST route',
  );
  assert.deepEqual(
    [...NOT_BUILT].filter((p) => posts.has(p)),
    [],
    'built now: take it off NOT_BUILT',
  );
});

test('a route is flagged idempotent exactly when its path is listed', () => {
  for (const r of t.app.routeTable.filter((r) => r.url.startsWith(`${V3}/`) && r.method !== 'HEAD')) {
    const expected = r.method === 'POST' && listed.includes(shape(r.url.slice(V3.length)));
    assert.equal(r.config.idempotent ?? false, expected, `${r.method} ${r.url}`);
  }
});
