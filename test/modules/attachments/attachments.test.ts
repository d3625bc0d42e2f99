import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTestApp } from '../../helpers.ts';
import { runJobsOnce } from '../../../src/modules/jobs/index.ts';
import attachmentsModule from '../../../src/modules/attachments/index.ts';
import {
  authHeaders,
  dataDir,
  makeNote,
  makeTask,
  oneFile,
  PDF,
  PNG,
  stagingFiles,
  storedRows,
  upload,
  waitUntilSettled,
} from './support.ts';

const dir = await dataDir();
const t = await createTestApp({ dataDir: dir });
const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

const download = (id: number, headers: Record<string, string> = {}, tenant = t.tenant) =>
  fetch(`${t.baseUrl}/api/v3/attachments/${id}/download`, { headers: { ...authHeaders(tenant, 'read'), ...headers } });

async function uploaded(name: string, data: Buffer | string, type?: string, parent?: string): Promise<any> {
  const res = await upload(t, parent ?? `/tasks/${await makeTask(t)}/attachments`, oneFile(name, data, type));
  assert.equal(res.status, 201, res.text);
  return waitUntilSettled(t, res.body.data.id);
}

test('upload to a task: processing, verified by the job, then downloaded byte for byte', async () => {
  const taskId = await makeTask(t);
  const res = await upload(t, `/tasks/${taskId}/attachments`, oneFile('scan.png', PNG, 'image/png'), { key: 'write' });
  assert.equal(res.status, 201, res.text);
  const created = res.body.data;
  assert.deepEqual(Object.keys(created).sort(), [
    'content_type',
    'created_at',
    'created_by_person_id',
    'file_name',
    'id',
    'processed_at',
    'related_id',
    'related_type',
    'sha256',
    'size',
    'status',
    'updated_at',
  ]);
  assert.equal(created.related_type, 'task');
  assert.equal(created.related_id, taskId);
  assert.equal(created.file_name, 'scan.png');
  assert.equal(created.content_type, 'image/png');
  assert.equal(created.size, PNG.length);
  assert.equal(created.sha256, sha(PNG));
  const ready = await waitUntilSettled(t, created.id);
  assert.equal(ready.status, 'ready');
  assert.ok(ready.processed_at);
  const file = await download(created.id);
  assert.equal(file.status, 200);
  assert.equal(file.headers.get('content-type'), 'image/png');
  assert.equal(file.headers.get('content-length'), String(PNG.length));
  assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(file.headers.get('accept-ranges'), 'bytes');
  assert.equal(file.headers.get('content-disposition'), `attachment; filename="scan.png"; filename*=UTF-8''scan.png`);
  assert.deepEqual(Buffer.from(await file.arrayBuffer()), PNG);
  assert.deepEqual(await stagingFiles(dir), []);
  const row = (await storedRows(t)).find((r) => r.id === created.id);
  assert.equal(row?.status, 'ready');
  assert.equal(row?.sha256, sha(PNG));
  assert.equal(row?.deleted_at, null);
});

test('upload to a note; the same bytes twice are stored once and both records download them', async () => {
  const noteId = await makeNote(t);
  const first = await upload(t, `/notes/${noteId}/attachments`, oneFile('contract.pdf', PDF, 'application/pdf'));
  assert.equal(first.status, 201, first.text);
  assert.equal(first.body.data.related_type, 'note');
  assert.equal(first.body.data.related_id, noteId);
  const second = await upload(t, `/notes/${noteId}/attachments`, oneFile('copy.pdf', PDF));
  assert.equal(second.status, 201, second.text);
  assert.equal(second.body.data.content_type, 'application/pdf');
  for (const id of [first.body.data.id, second.body.data.id]) {
    assert.equal((await waitUntilSettled(t, id)).status, 'ready');
    assert.deepEqual(Buffer.from(await (await download(id)).arrayBuffer()), PDF);
  }
});

test('list with filters, read one, delete (soft) and 404 afterwards', async () => {
  const taskId = await makeTask(t);
  const noteId = await makeNote(t);
  const a = await uploaded('Quarterly REPORT.pdf', PDF, 'application/pdf', `/tasks/${taskId}/attachments`);
  const b = await uploaded('notes.txt', 'plain words\n', 'text/plain', `/notes/${noteId}/attachments`);
  const byTask = await t.request('GET', `/attachments?related_type=task&related_id=${taskId}`, { key: 'read' });
  assert.equal(byTask.status, 200, byTask.text);
  assert.deepEqual(byTask.body.data, [a]);
  assert.deepEqual(byTask.body.meta, { total: 1, limit: 50, offset: 0, has_more: false }, 'offset-only: no cursor');
  const byNote = await t.request('GET', `/attachments?related_type=note&related_id=${noteId}`);
  assert.deepEqual(byNote.body.data, [b]);
  const byName = await t.request('GET', '/attachments?q=quarterly%20report');
  assert.deepEqual(byName.body.data, [a]);
  const bad = await t.request('GET', '/attachments?related_type=client');
  assert.equal(bad.status, 422);
  assert.equal(bad.body.error.code, 'INVALID_FILTER_VALUE');
  const unknown = await t.request('GET', '/attachments?owner=1');
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');

  const read = await t.request('GET', `/attachments/${a.id}`, { key: 'read' });
  assert.deepEqual(read.body.data, a);
  assert.equal(read.headers.get('etag'), `"${a.updated_at}"`);

  const deleted = await t.request('DELETE', `/attachments/${a.id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  const row = (await storedRows(t)).find((r) => r.id === a.id);
  assert.notEqual(row?.deleted_at, null);
  for (const [method, url] of [
    ['GET', `/attachments/${a.id}`],
    ['GET', `/attachments/${a.id}/download`],
    ['DELETE', `/attachments/${a.id}`],
  ] as const) {
    const gone = await t.request(method, url);
    assert.equal(gone.status, 404, `${method} ${url}`);
    assert.equal(gone.body.error.code, 'NOT_FOUND');
  }
  assert.deepEqual((await t.request('GET', `/attachments?related_type=task&related_id=${taskId}`)).body.data, []);
});

test('download answers 409 ATTACHMENT_PROCESSING while processing', async () => {
  const file = await uploaded('later.pdf', PDF);
  await t.db.db.updateTable('attachments').set({ status: 'processing' }).where('id', '=', file.id).execute();
  const res = await t.request('GET', `/attachments/${file.id}/download`);
  assert.equal(res.status, 409);
  assert.equal(res.body.error.code, 'ATTACHMENT_PROCESSING');
  assert.equal(res.body.error.details.status, 'processing');
  assert.equal(res.headers.get('retry-after'), '1');
});

test('verification fails an attachment whose stored bytes changed, and download refuses it', async () => {
  const file = await uploaded('tampered.pdf', Buffer.from('%PDF-1.5\nunique tampered bytes\n%%EOF\n'));
  await t.db.db.updateTable('attachments').set({ status: 'processing' }).where('id', '=', file.id).execute();
  const blob = path.join(dir, 'blobs', file.sha256.slice(0, 2), file.sha256.slice(2, 4), file.sha256);
  await writeFile(blob, '%PDF-1.5\nsomething else entirely\n%%EOF\n');
  await t.db.db
    .insertInto('jobs')
    .values({
      company_id: t.tenant.companyId,
      type: 'attachment_verify',
      params: JSON.stringify({ attachment_id: file.id }),
      api_key_id: t.tenant.keyIds.admin,
    })
    .execute();
  await runJobsOnce(t.db.db, attachmentsModule.jobs!, undefined, { config: t.app.config });
  const row = (await storedRows(t)).find((r) => r.id === file.id);
  assert.equal(row?.status, 'failed');
  assert.equal(row?.failure_reason, 'the stored bytes differ from the upload');
  const res = await t.request('GET', `/attachments/${file.id}/download`);
  assert.equal(res.status, 409);
  assert.equal(res.body.error.code, 'ATTACHMENT_PROCESSING');
  assert.equal(res.body.error.details.status, 'failed');
});

test('Range: one range gives 206, past the end 416, several or malformed ranges the whole file', async () => {
  const text = '0123456789abcdefghij';
  const file = await uploaded('range.txt', text, 'text/plain');
  const cases: Array<[string, number, string, string | null]> = [
    ['bytes=0-3', 206, '0123', 'bytes 0-3/20'],
    ['bytes=15-', 206, 'fghij', 'bytes 15-19/20'],
    ['bytes=-4', 206, 'ghij', 'bytes 16-19/20'],
    ['bytes=18-99999999999999999999', 206, 'ij', 'bytes 18-19/20'],
    ['bytes=0-1,4-5', 200, text, null],
    ['bytes=5-2', 200, text, null],
    ['items=0-3', 200, text, null],
  ];
  for (const [range, status, body, contentRange] of cases) {
    const res = await download(file.id, { range });
    assert.equal(res.status, status, range);
    assert.equal(await res.text(), body, range);
    assert.equal(res.headers.get('content-range'), contentRange, range);
    assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(body)), range);
  }
  for (const range of ['bytes=20-', 'bytes=-0', 'bytes=100-200']) {
    const res = await download(file.id, { range });
    assert.equal(res.status, 416, range);
    assert.equal(res.headers.get('content-range'), 'bytes */20');
    assert.equal(((await res.json()) as any).error.code, 'RANGE_NOT_SATISFIABLE');
  }
  const whole = await download(file.id);
  assert.equal(whole.headers.get('content-type'), 'text/plain; charset=utf-8');
});

test('Content-Disposition: an ASCII fallback and the exact UTF-8 name (RFC 6266)', async () => {
  const file = await uploaded("Rapport über 100% ;final's.pdf", PDF, 'application/pdf');
  assert.equal(file.file_name, "Rapport über 100% ;final's.pdf");
  const res = await download(file.id);
  assert.equal(
    res.headers.get('content-disposition'),
    `attachment; filename="Rapport _ber 100_ ;final's.pdf"; filename*=UTF-8''Rapport%20%C3%BCber%20100%25%20%3Bfinal%27s.pdf`,
  );
});

test("another company's attachments, tasks and notes are out of reach", async () => {
  const other = await t.newTenant({ name: 'Other files' });
  const file = await uploaded('mine.pdf', PDF);
  for (const url of [`/attachments/${file.id}`, `/attachments/${file.id}/download`]) {
    const res = await t.request('GET', url, { tenant: other });
    assert.equal(res.status, 404, url);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.equal((await t.request('DELETE', `/attachments/${file.id}`, { tenant: other })).status, 404);
  assert.deepEqual((await t.request('GET', '/attachments', { tenant: other })).body.data, []);
  const before = (await storedRows(t)).length;
  const taskId = await makeTask(t);
  const noteId = await makeNote(t);
  for (const parent of [`/tasks/${taskId}`, `/notes/${noteId}`, '/tasks/2147483000', '/notes/2147483000']) {
    const res = await upload(t, `${parent}/attachments`, oneFile('x.pdf', PDF), { tenant: other });
    assert.equal(res.status, 400, parent);
    assert.equal(res.body.error.code, 'INVALID_PARENT');
  }
  await t.request('DELETE', `/tasks/${taskId}`);
  const deletedParent = await upload(t, `/tasks/${taskId}/attachments`, oneFile('x.pdf', PDF));
  assert.equal(deletedParent.body.error.code, 'INVALID_PARENT');
  assert.equal((await storedRows(t)).length, before);
  assert.deepEqual(await stagingFiles(dir), []);
});

test('Idempotency-Key: the same file replays, another file with the same key is refused', async () => {
  const taskId = await makeTask(t);
  const url = `/tasks/${taskId}/attachments`;
  const headers = { 'idempotency-key': `upload-${taskId}` };
  const first = await upload(t, url, oneFile('same.pdf', PDF), { headers });
  assert.equal(first.status, 201, first.text);
  const again = await upload(t, url, oneFile('same.pdf', PDF), { headers });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  assert.equal(again.body.data.id, first.body.data.id);
  const other = await upload(t, url, oneFile('same.pdf', PDF.subarray(0, 20)), { headers });
  assert.equal(other.status, 409);
  assert.equal(other.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  const rows = (await storedRows(t)).filter((r) => r.related_id === taskId);
  assert.equal(rows.length, 1);
});

test('the OpenAPI document describes the multipart body and the download', async () => {
  const doc = (await t.request('GET', '/openapi.json')).body;
  const op = doc.paths['/tasks/{task_id}/attachments'].post;
  const form = op.requestBody.content['multipart/form-data'].schema;
  assert.equal(form.properties.file.format, 'binary');
  assert.equal(op['x-scope'], 'write:attachments');
  assert.ok(doc.paths['/notes/{note_id}/attachments'].post.requestBody.content['multipart/form-data']);
  const dl = doc.paths['/attachments/{attachment_id}/download'].get;
  assert.ok(dl.responses['200'].content['*/*']);
  assert.ok(dl.responses['206']);
  assert.ok(dl.responses['416']);
});
