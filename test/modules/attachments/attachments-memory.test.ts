import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { createTestApp } from '../../helpers.ts';
import { MAX_FILE_BYTES } from '../../../src/modules/attachments/attachments.rules.ts';
import {
  authHeaders,
  dataDir,
  makeTask,
  MULTIPART_TYPE,
  stagingFiles,
  storedRows,
  waitUntilSettled,
} from './support.ts';

const dir = await dataDir();
const t = await createTestApp({ dataDir: dir });
const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x41);

/** A PDF of exactly `size` bytes as a stream of one reused chunk: the test never holds the file either. */
function* pdfBytes(size: number): Generator<Buffer> {
  const header = Buffer.from('%PDF-1.7\n');
  yield header;
  let left = size - header.length;
  while (left > 0) {
    const n = Math.min(left, CHUNK.length);
    yield n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n);
    left -= n;
  }
}

function* form(name: string, size: number): Generator<Buffer> {
  const boundary = MULTIPART_TYPE.split('boundary=')[1];
  yield Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  yield* pdfBytes(size);
  yield Buffer.from(`\r\n--${boundary}--\r\n`);
}

const expectedSha = (size: number) => {
  const hash = createHash('sha256');
  for (const chunk of pdfBytes(size)) hash.update(chunk);
  return hash.digest('hex');
};

/** Streams a generated upload with node:http, which reads an early answer (413) while still sending. */
function send(urlPath: string, name: string, size: number): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${t.baseUrl}/api/v3${urlPath}`, {
      method: 'POST',
      headers: { ...authHeaders(t.tenant), 'content-type': MULTIPART_TYPE },
    });
    request.on('response', async (response) => {
      let text = '';
      for await (const chunk of response) text += chunk;
      resolve({ status: response.statusCode!, body: JSON.parse(text) });
    });
    // The server stops reading a refused body and closes: writing then fails, which is the point.
    request.on('error', (error) => (request.writableEnded ? reject(error) : undefined));
    Readable.from(form(name, size)).pipe(request);
  });
}

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

/**
 * Largest RSS seen while fn runs, above the RSS before it (sampled every 25 ms). The client and the server share
 * this process, and the chunks already sent wait for a collection whose moment V8 chooses: a young-generation
 * collection before each sample keeps that lag (up to 57 MB seen) out of the figure. A server that held the file
 * would still show it, since live chunks survive any collection.
 */
async function rssGrowth(fn: () => Promise<void>): Promise<number> {
  collect({ type: 'major' });
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => {
    collect({ type: 'minor' });
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 25);
  try {
    await fn();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage.rss()) - before;
}

/** Uploads a generated PDF of `size` bytes, waits for verification, downloads it streaming and checks its hash. */
async function roundTrip(taskId: number, size: number): Promise<void> {
  const res = await send(`/tasks/${taskId}/attachments`, 'large.pdf', size);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.data.size, size);
  assert.equal((await waitUntilSettled(t, res.body.data.id)).status, 'ready');
  const file = await fetch(`${t.baseUrl}/api/v3/attachments/${res.body.data.id}/download`, {
    headers: authHeaders(t.tenant),
  });
  assert.equal(file.status, 200);
  assert.equal(file.headers.get('content-length'), String(size));
  const hash = createHash('sha256');
  let received = 0;
  for await (const chunk of file.body!) {
    hash.update(chunk);
    received += chunk.length;
  }
  assert.equal(received, size);
  assert.equal(hash.digest('hex'), expectedSha(size));
}

test('a 150 MB upload and its download keep memory flat (RSS + < 50 MB)', async () => {
  const taskId = await makeTask(t);
  // Warm-up: the first transfer loads code and grows the allocator's free lists once (chunks awaiting garbage
  // collection); what is measured is whether memory then grows with the file's size, which it must not.
  await roundTrip(taskId, 20 * MB);
  const growth = await rssGrowth(() => roundTrip(taskId, MAX_FILE_BYTES));
  assert.ok(growth < 50 * MB, `RSS grew by ${Math.round(growth / MB)} MB`);
});

test('one byte over 150 MB is 413 FILE_TOO_LARGE, with nothing stored or staged', async () => {
  const taskId = await makeTask(t);
  const before = (await storedRows(t)).length;
  const res = await send(`/tasks/${taskId}/attachments`, 'too-large.pdf', MAX_FILE_BYTES + 1);
  assert.equal(res.status, 413);
  assert.equal(res.body.error.code, 'FILE_TOO_LARGE');
  assert.equal((await storedRows(t)).length, before);
  assert.deepEqual(await stagingFiles(dir), []);
});

test('ten concurrent 20 MB uploads all succeed and verify', async () => {
  const taskId = await makeTask(t);
  const sizes = Array.from({ length: 10 }, (_, i) => 20 * MB - i);
  const results = await Promise.all(
    sizes.map((size, i) => send(`/tasks/${taskId}/attachments`, `part-${i}.pdf`, size)),
  );
  for (const [i, res] of results.entries()) {
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.size, sizes[i]);
  }
  for (const res of results) assert.equal((await waitUntilSettled(t, res.body.data.id)).status, 'ready');
  assert.equal(results[3]!.body.data.sha256, expectedSha(sizes[3]!));
  assert.deepEqual(await stagingFiles(dir), []);
});
