import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { CreateBucketCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { createTestApp } from '../../helpers.ts';
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
await store.client.send(new CreateBucketCommand({ Bucket: s3.bucket }));

test('with S3 configured, uploads go to the bucket and come back whole or by range', async () => {
  const taskId = await makeTask(t);
  const res = await upload(t, `/tasks/${taskId}/attachments`, oneFile('contract.pdf', PDF, 'application/pdf'));
  assert.equal(res.status, 201, res.text);
  const sha256 = createHash('sha256').update(PDF).digest('hex');
  assert.equal(res.body.data.sha256, sha256);
  const head = await store.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `blobs/${sha256}` }));
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
  assert.deepEqual(await store.stat(key), { size: 11 });
  const chunks: Buffer[] = [];
  for await (const chunk of await store.get(key, { start: 6, end: 10 })) chunks.push(chunk as Buffer);
  assert.equal(Buffer.concat(chunks).toString(), 'world');
  await store.delete(key);
  assert.equal(await store.stat(key), undefined);
  await assert.rejects(() => store.put('../escape', Readable.from([Buffer.from('x')])), /invalid blob key/);
});
