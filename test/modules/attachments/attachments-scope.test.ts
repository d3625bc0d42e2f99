import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { generateKey } from '../../../src/platform/keys.ts';
import { expandScopes } from '../../../src/platform/scopes.ts';
import {
  authHeaders,
  dataDir,
  makeNote,
  makeTask,
  oneFile,
  PDF,
  storedRows,
  upload,
  waitUntilSettled,
} from './support.ts';

// A key granted only read and write:attachments: it may upload and delete files, and nothing else may change.
const t = await createTestApp({ dataDir: await dataDir() });
const generated = generateKey();
await t.db.db
  .insertInto('api_keys')
  .values({
    company_id: t.tenant.companyId,
    name: 'uploader',
    key_prefix: generated.prefix,
    key_hash: generated.hash,
    kind: 'integration',
    scopes: expandScopes(['read', 'write:attachments']),
    person_id: t.tenant.ownerPersonId,
    revoked_at: null,
    expires_at: null,
    grace_expires_at: null,
    rotated_to_id: null,
    ip_allowlist: null,
    last_used_at: null,
  })
  .execute();
const key = generated.fullKey;

test('read + write:attachments: uploads to tasks and notes, reads, downloads and deletes its files', async () => {
  const taskId = await makeTask(t);
  const onTask = await upload(t, `/tasks/${taskId}/attachments`, oneFile('scope.pdf', PDF, 'application/pdf'), { key });
  assert.equal(onTask.status, 201, onTask.text);
  const onNote = await upload(t, `/notes/${await makeNote(t)}/attachments`, oneFile('n.txt', 'note file\n'), { key });
  assert.equal(onNote.status, 201, onNote.text);
  const rows = await storedRows(t);
  assert.deepEqual(
    rows.map((r) => [r.id, r.file_name]),
    [
      [onTask.body.data.id, 'scope.pdf'],
      [onNote.body.data.id, 'n.txt'],
    ],
  );
  await waitUntilSettled(t, onTask.body.data.id);
  const list = await t.request('GET', `/attachments?related_type=task&related_id=${taskId}`, { key });
  assert.equal(list.status, 200, list.text);
  assert.deepEqual(
    list.body.data.map((a: { id: number }) => a.id),
    [onTask.body.data.id],
  );
  const download = await fetch(`${t.baseUrl}/api/v3/attachments/${onTask.body.data.id}/download`, {
    headers: authHeaders(t.tenant, key),
  });
  assert.equal(download.status, 200);
  assert.deepEqual(Buffer.from(await download.arrayBuffer()), PDF);
  const removed = await t.request('DELETE', `/attachments/${onNote.body.data.id}`, { key });
  assert.equal(removed.status, 204, removed.text);
  assert.notEqual((await storedRows(t)).find((r) => r.id === onNote.body.data.id)?.deleted_at, null);
});

test('read + write:attachments: every other write is 403 FORBIDDEN naming the write scope, nothing stored', async () => {
  const taskId = await makeTask(t);
  const writes: Array<[string, string, unknown]> = [
    ['POST', '/tasks', { title: 'Not allowed' }],
    ['PATCH', `/tasks/${taskId}`, { title: 'Renamed' }],
    ['DELETE', `/tasks/${taskId}`, undefined],
    ['POST', '/clients', { name: 'Not allowed' }],
    ['POST', '/notes', { related_type: 'client', related_id: 1, comments: 'x' }],
    ['POST', '/custom-fields', { name: 'F', field_type: 'text', entity_type: 'task' }],
  ];
  for (const [method, path, body] of writes) {
    const res = await t.request(method, path, { key, body });
    assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.required_scope, 'write');
  }
  const task = await t.request('GET', `/tasks/${taskId}`, { key });
  assert.equal(task.status, 200, task.text);
  assert.equal(task.body.data.title, 'Task with files');
  const clients = await t.db.db
    .selectFrom('clients')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('name', '=', 'Not allowed')
    .execute();
  assert.deepEqual(clients, []);
});

test('a read-only key may not upload: 403 before a byte is stored', async () => {
  const res = await upload(t, `/tasks/${await makeTask(t)}/attachments`, oneFile('x.pdf', PDF, 'application/pdf'), {
    key: 'read',
  });
  assert.equal(res.status, 403, res.text);
  assert.equal(res.body.error.details.required_scope, 'write:attachments');
});
