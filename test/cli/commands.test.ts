import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createTestApp } from '../helpers.ts';
import { createTask } from '../modules/tasks/fixtures.ts';
import { makeInvoice } from '../modules/invoice-documents/fixtures.ts';
import { makeHome, SLOW, svc } from './support.ts';

const t = await createTestApp();
const home = await makeHome();
// The environment stands in for a profile (as in CI), so these tests need no login step.
const env = { SVC_URL: t.baseUrl, SVC_COMPANY: t.tenant.companyId, SVC_API_KEY: t.tenant.keys.admin };

test(
  'jobs wait follows a real job to its end: exit 0, a progress line per change, the job on stdout',
  SLOW,
  async () => {
    const task = await createTask(t, { assignees: [t.tenant.memberPersonId] });
    const started = await t.request('POST', '/tasks/bulk-action', {
      body: { action: 'status', status: 'in_progress', filter: { ids: [task.id] } },
    });
    assert.equal(started.status, 202, started.text);
    const id = started.body.data.id as number;
    const result = await svc(home, ['jobs', 'wait', String(id), '--interval', '100', '-o', 'json'], env);
    assert.equal(result.code, 0, result.stderr);
    const job = JSON.parse(result.stdout).data;
    assert.equal(job.id, id);
    assert.equal(job.status, 'finished');
    assert.match(result.stderr, new RegExp(`job ${id} task_bulk_action: finished 1/1\\n$`));
  },
);

test('jobs wait on a failed job prints it and exits 1 with the job error', SLOW, async () => {
  const row = await t.db.db
    .insertInto('jobs')
    .values({
      company_id: t.tenant.companyId,
      type: 'task_bulk_action',
      status: 'failed',
      params: '{}',
      total_count: 3,
      processed_count: 1,
      failed_count: null,
      failed_client_ids: null,
      skipped_count: null,
      skipped_client_ids: null,
      error: 'the task list changed under the job',
      api_key_id: null,
      started_at: new Date().toISOString(),
      finished_at: new Date().toISOString(),
      heartbeat_at: null,
      target_ids: null,
      run_after: null,
      result: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const result = await svc(home, ['jobs', 'wait', String(row.id), '-o', 'json'], env);
  assert.equal(result.code, 1);
  assert.equal(JSON.parse(result.stdout).data.status, 'failed');
  assert.match(result.stderr, /job \d+ task_bulk_action: failed 1\/3\n/);
  assert.match(result.stderr, /\{"error":\{"code":"JOB_FAILED","message":"the task list changed under the job"\}\}/);
});

test('invoices download writes the PDF (and UBL) the document route serves', SLOW, async () => {
  const invoice = await makeInvoice(t, t.tenant);
  const out = path.join(home.dir, 'invoice.pdf');
  const pdf = await svc(home, ['invoices', 'download', String(invoice.id), '--format', 'pdf', '--out', out], env);
  assert.equal(pdf.code, 0, pdf.stderr);
  const bytes = await readFile(out);
  assert.equal(bytes.subarray(0, 4).toString('latin1'), '%PDF');
  assert.match(pdf.stderr, new RegExp(`^Saved ${out} \\(${bytes.length} bytes, application/pdf\\)`));
  const ubl = await svc(home, ['invoices', 'download', String(invoice.id), '--format', 'ubl', '--out', '-'], env);
  assert.equal(ubl.code, 0, ubl.stderr);
  assert.match(ubl.stdout, /^<\?xml[^>]*\?>\s*<Invoice /);
});

test('invoices download: a bad --format is exit 2 before any request, an unknown invoice exit 4', SLOW, async () => {
  const bad = await svc(home, ['invoices', 'download', '1', '--format', 'docx'], env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--format must be one of pdf, ubl/);
  const missing = await svc(home, ['invoices', 'download', '99999999'], env);
  assert.equal(missing.code, 4);
  assert.match(missing.stderr, /^error: NOT_FOUND: /);
});

test('completion bash|zsh prints a script; another shell is a usage error', SLOW, async () => {
  const bash = await svc(home, ['completion', 'bash']);
  assert.equal(bash.code, 0, bash.stderr);
  assert.match(bash.stdout, /complete -o default -F _svc_complete svc/);
  const zsh = await svc(home, ['completion', 'zsh']);
  assert.match(zsh.stdout, /^#compdef svc/);
  const fish = await svc(home, ['completion', 'fish']);
  assert.equal(fish.code, 2);
  assert.match(fish.stderr, /shell must be bash or zsh/);
});

test('completion candidates come from the served document', SLOW, async () => {
  await svc(home, ['clients', 'list'], env); // caches the document
  const resources = (await svc(home, ['__complete'], env)).stdout.split('\n');
  for (const name of ['clients', 'invoices', 'jobs', 'webhooks', 'login', 'api'])
    assert.ok(resources.includes(name), name);
  const verbs = (await svc(home, ['__complete', 'clients'], env)).stdout.split('\n');
  for (const verb of ['list', 'get', 'create', 'update', 'delete']) assert.ok(verbs.includes(verb), verb);
  const flags = (await svc(home, ['__complete', 'clients', 'list'], env)).stdout.split('\n');
  assert.ok(flags.includes('--status') && flags.includes('--all') && flags.includes('--output'));
});

test('help documents the API commands and the exit codes', SLOW, async () => {
  const help = await svc(home, ['help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /company create/, 'the operator commands stay');
  assert.match(help.stdout, /login --company <uuid> \[--url <base>\] \[--profile <name>\] < key/);
  assert.match(help.stdout, /Exit codes: 0 ok, 1 failed .+ 2 usage .+\n.+4 the API answered 4xx, 5 .+5xx, 6 network/);
  const group = await svc(home, ['clients', '--help'], env);
  assert.equal(group.code, 0);
  assert.match(group.stdout, /list +.*\(GET \/clients\)/);
});

test('list --all pages an offset-only list by offset (it has no cursor to follow)', SLOW, async () => {
  const client = await t.request('POST', '/clients', { body: { name: 'Noted client' } });
  const names = ['Offset one', 'Offset two', 'Offset three'];
  for (const name of names) {
    const body = { related_type: 'client', related_id: client.body.data.id, comments: `<p>${name}</p>` };
    assert.equal((await t.request('POST', '/notes', { body })).status, 201);
  }
  const result = await svc(home, ['notes', 'list', '--all', '--limit', '2', '-o', 'json'], env);
  assert.equal(result.code, 0, result.stderr);
  const listed = JSON.parse(result.stdout).data.map((n: { comments: string }) => n.comments);
  for (const name of names) assert.ok(listed.includes(`<p>${name}</p>`), `${name} in ${listed}`);
});
