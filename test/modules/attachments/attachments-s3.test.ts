import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { CreateBucketCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { createTestApp } from '../../helpers.ts';
import { runPeriodicOnce } from '../../../src/background/periodic.ts';
import attachmentsModule from '../../../src/modules/attachments/index.ts';
import { S3BlobStore, storageFor } from '../../../src/platform/storage/index.ts';
import {
  authHeaders,
  dataDir,
  makeTask,
  oneFile,
  PDF,
  stagingFiles,
  upload,
  waitUntilSettled,
  ZIP,
} from './support.ts';

// A real S3-compatible server on a loopback port, not a mock.
const server = new S3rver({
  port: 0,
  address: '127.0.0.1',
  silent: true,
  directory: await mkdtemp(path.join(tmpdir(), 's3rver-')),
});
const { port } = await server.run();
after(() => server.close());

const s3 = {
  url: `http://127.0.0.1:${port}`,
  bucket: 'svc-attachments',
  region: 'us-east-1',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
};
const dir = await dataDir();
const t = await createTestApp({ dataDir: dir, storage: { s3 } });
const store = storageFor(t.app.config);
assert.ok(store instanceof S3BlobStore);
await (await store.client()).send(new CreateBucketCommand({ Bucket: s3.bucket }));

test('with S3 configured, uploads go to the bucket and come back whole or by range', async () => {
  const taskId = await makeTask(t);
  const res = await upload(t, `/tasks/${taskId}/attachments`, oneFile('contract.pdf', PDF, 'application/pdf'));
  assert.equal(res.status, 201, res.text);
  const sha256 = createHash('sha256').update(PDF).digest('hex');
  assert.equal(res.body.data.sha256, sha256);
  const head = await (await store.client()).send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `blobs/${sha256}` }));
  assert.equal(head.ContentLength, PDF.length);
  assert.deepEqual(await stagingFiles(dir), []);
  assert.equal((await waitUntilSettled(t, res.body.data.id)).status, 'ready');

  const url = `${t.baseUrl}/api/v3/attachments/${res.body.data.id}/download`;
  const whole = await fetch(url, { headers: authHeaders(t.tenant) });
  assert.equal(whole.status, 200);
  assert.equal(whole.headers.get('content-length'), String(PDF.length));
  assert.deepEqual(Buffer.from(await whole.arrayBuffer()), PDF);
  const part = await fetch(url, { headers: { ...authHeaders(t.tenant), range: 'bytes=1-4' } });
  assert.equal(part.status, 206);
  assert.equal(await part.text(), 'PDF-');
});

test('with S3 configured, a refused upload leaves nothing in the bucket or on disk', async () => {
  const taskId = await makeTask(t);
  const res = await upload(t, `/tasks/${taskId}/attachments`, oneFile('invoice.pdf', ZIP, 'application/pdf'));
  assert.equal(res.status, 415);
  assert.equal(res.body.error.code, 'MIME_MISMATCH');
  const sha256 = createHash('sha256').update(ZIP).digest('hex');
  assert.equal(await store.stat(sha256), undefined);
  assert.deepEqual(await stagingFiles(dir), []);
});

test('the S3 store: put, stat, ranged get and delete by key', async () => {
  const key = 'f'.repeat(64);
  const { Readable } = await import('node:stream');
  await store.put(key, Readable.from([Buffer.from('hello '), Buffer.from('world')]));
  assert.equal((await store.stat(key))?.size, 11);
  const chunks: Buffer[] = [];
  for await (const chunk of await store.get(key, { start: 6, end: 10 })) chunks.push(chunk as Buffer);
  assert.equal(Buffer.concat(chunks).toString(), 'world');
  await store.delete(key);
  assert.equal(await store.stat(key), undefined);
  await assert.rejects(() => store.put('../escape', Readable.from([Buffer.from('x')])), /invalid blob key/);
});

test('the orphan sweep on S3: unreferenced objects past the grace period go, referenced ones stay', async () => {
  const { Readable } = await import('node:stream');
  const taskId = await makeTask(t);
  const live = await upload(t, `/tasks/${taskId}/attachments`, oneFile('keep.pdf', PDF, 'application/pdf'));
  assert.equal(live.status, 201, live.text);
  await waitUntilSettled(t, live.body.data.id);
  const gone = await upload(t, `/tasks/${taskId}/attachments`, oneFile('old.txt', 'deleted long ago\n'));
  assert.equal(gone.status, 201, gone.text);
  await waitUntilSettled(t, gone.body.data.id);
  assert.equal((await t.request('DELETE', `/attachments/${gone.body.data.id}`)).status, 204);
  const orphan = 'e'.repeat(64); // bytes whose record never committed
  await store.put(orphan, Readable.from([Buffer.from('never recorded')]));

  // Two days on: every object is past the grace period; only the live attachment's bytes are still named.
  const later = new Date(Date.now() + 2 * 24 * 3600_000);
  const outcome = await runPeriodicOnce(t.db.db, attachmentsModule.periodic!, later, { config: t.app.config });
  assert.deepEqual(outcome['attachment-orphans'], { blobs_deleted: 2, staged_deleted: 0 });
  assert.equal(await store.stat(orphan), undefined);
  assert.equal(await store.stat(gone.body.data.sha256), undefined);
  assert.equal((await store.stat(live.body.data.sha256))?.size, PDF.length);
  const still = await fetch(`${t.baseUrl}/api/v3/attachments/${live.body.data.id}/download`, {
    headers: authHeaders(t.tenant),
  });
  assert.equal(still.status, 200);
  assert.deepEqual(Buffer.from(await still.arrayBuffer()), PDF);
});

test("on S3 a second upload of stored bytes moves the object's time on (the sweep's grace restarts)", async () => {
  const bytes = Buffer.from('%PDF-1.4\n% touched\n%%EOF\n');
  const first = await upload(t, `/tasks/${await makeTask(t)}/attachments`, oneFile('a.pdf', bytes, 'application/pdf'));
  assert.equal(first.status, 201, first.text);
  const before = (await store.stat(first.body.data.sha256))!.modifiedAt;
  await new Promise((resolve) => setTimeout(resolve, 50));
  const again = await upload(t, `/tasks/${await makeTask(t)}/attachments`, oneFile('b.pdf', bytes, 'application/pdf'));
  assert.equal(again.status, 201, again.text);
  const after = (await store.stat(first.body.data.sha256))!;
  assert.ok(after.modifiedAt > before, `${after.modifiedAt.toISOString()} > ${before.toISOString()}`);
  assert.equal(after.size, bytes.length);
});
