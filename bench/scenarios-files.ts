// Files (issue 12): 20 MB uploads and downloads at a few connections, in MB/s, next to a floor that moves the same
// bytes with fs streams (write to a fsynced file, read it back), and the service's RSS while it streams.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { guarded, send, type Bench } from './harness.ts';
import { withRssSampling } from './processes.ts';
import type { Req } from './requests.ts';
import { largest, missing } from './scenario-kit.ts';
import type { Row } from './report.ts';

const MB = 1024 * 1024;
const FILE_BYTES = 20 * MB;
const CONNECTIONS = 4;
const CHUNK = 64 * 1024;
const RSS_GROWTH_LIMIT_MB = 50;
const BOUNDARY = '----svc-bench-files';
/** One random 64 KB block reused for every chunk: generating the bytes must cost next to nothing. */
const FILLER = Buffer.from(Array.from({ length: CHUNK }, (_, i) => 32 + ((i * 7919) % 95)));

/** A distinct PDF-looking file of FILE_BYTES (its first line names it, so no two share a content hash). */
function fileBytes(n: number): Readable {
  const head = Buffer.from(`%PDF-1.4\n% bench file ${n} ${process.pid} ${Date.now()}\n`);
  let sent = 0;
  return Readable.from(
    (function* () {
      yield head;
      sent = head.length;
      while (sent < FILE_BYTES) {
        const chunk = FILLER.subarray(0, Math.min(CHUNK, FILE_BYTES - sent));
        sent += chunk.length;
        yield chunk;
      }
    })(),
  );
}

const PRE = (n: number) =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench-${n}.pdf"\r\n` +
      `Content-Type: application/pdf\r\n\r\n`,
  );
const POST = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/** One streamed multipart upload with a known Content-Length; answers the status and the attachment id. */
function uploadOne(bench: Bench, taskId: number, n: number): Promise<{ status: number; id?: number }> {
  const company = largest(bench);
  const pre = PRE(n);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port: bench.service.port,
        method: 'POST',
        path: `/api/v3/tasks/${taskId}/attachments`,
        headers: {
          'x-service-company': company.id,
          'x-api-key': company.keys[0]!.key,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': pre.length + FILE_BYTES + POST.length,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, id: JSON.parse(text || '{}')?.data?.id }));
      },
    );
    req.on('error', reject);
    pipeline(Readable.from([pre]), req, { end: false })
      .then(() => pipeline(fileBytes(n), req, { end: false }))
      .then(() => req.end(POST))
      .catch(reject);
  });
}

/** One download, read to its end and thrown away; answers the status and the bytes received. */
function downloadOne(bench: Bench, id: number): Promise<{ status: number; bytes: number }> {
  const company = largest(bench);
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        agent,
        host: '127.0.0.1',
        port: bench.service.port,
        path: `/api/v3/attachments/${id}/download`,
        headers: { 'x-service-company': company.id, 'x-api-key': company.keys[0]!.key },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      },
    );
    req.on('error', reject);
  });
}

interface Pass {
  seconds: number;
  files: number;
  errors: number;
  latencies: number[];
}

/** CONNECTIONS workers, each doing `one(k)` back to back until `seconds` have passed (every worker does one at least). */
async function timed(seconds: number, one: (k: number) => Promise<boolean>): Promise<Pass> {
  const started = performance.now();
  const pass: Pass = { seconds: 0, files: 0, errors: 0, latencies: [] };
  let next = 0;
  const worker = async () => {
    do {
      const t0 = performance.now();
      const ok = await one(next++);
      pass.latencies.push(performance.now() - t0);
      if (ok) pass.files++;
      else pass.errors++;
    } while (performance.now() - started < seconds * 1000);
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  pass.seconds = (performance.now() - started) / 1000;
  return pass;
}

const mbps = (pass: Pass) => (pass.files * FILE_BYTES) / MB / pass.seconds;
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * p)]!;

function row(label: string, target: Row['target'], pass: Pass, extra: Partial<Row>): Row {
  return {
    scenario: label,
    target,
    status: 'ok',
    rps: pass.files / pass.seconds,
    p50: pct(pass.latencies, 0.5),
    p99: pct(pass.latencies, 0.99),
    errors: pass.errors,
    ...extra,
  };
}

/** The floor: the same bytes written to (fsynced) files and read back with fs streams, at the same concurrency. */
async function floorPasses(seconds: number): Promise<{ up: Pass; down: Pass }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'svc-bench-files-'));
  try {
    const written: string[] = [];
    const up = await timed(seconds, async (k) => {
      const file = path.join(dir, `${k}.pdf`);
      await pipeline(fileBytes(k), createWriteStream(file, { flush: true }));
      written.push(file);
      return true;
    });
    const sink = () => new Writable({ write: (_c, _e, cb) => cb() });
    const down = await timed(seconds, async (k) => {
      await pipeline(createReadStream(written[k % written.length]!), sink());
      return true;
    });
    return { up, down };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const call = (bench: Bench, method: string, p: string, body?: unknown) => {
  const company = largest(bench);
  return send(bench.service, {
    method,
    path: `/api/v3${p}`,
    headers: { 'x-service-company': company.id, 'x-api-key': company.keys[0]!.key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  } as Req);
};

/** Waits until every uploaded attachment has been verified (downloads answer 409 before that). */
async function settled(bench: Bench, ids: number[]): Promise<string | undefined> {
  for (const id of ids) {
    for (;;) {
      const res = await call(bench, 'GET', `/attachments/${id}`);
      const status = res.body?.data?.status;
      if (status === 'ready') break;
      if (status !== 'processing') return `attachment ${id} is ${status ?? res.status}`;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return undefined;
}

export const filesTransfer = {
  id: 16,
  name: 'files',
  run: (bench: Bench) =>
    guarded(bench, '16 files', async () => {
      const label = (what: string) => `16 ${what} of ${FILE_BYTES / MB} MB files, ${CONNECTIONS} connections`;
      const task = await call(bench, 'POST', '/tasks', { title: `Bench files ${Date.now()}` });
      if (task.status !== 201) return void missing(bench, label('upload'), `setup: POST /tasks ${task.status}`);
      const taskId = task.body.data.id as number;
      const seconds = bench.args.duration;
      const ids: number[] = [];
      const base = (await bench.service.memory(true)).rss;
      const { result: up, peakRss: upPeak } = await withRssSampling(
        bench.service,
        timed(seconds, async (k) => {
          const res = await uploadOne(bench, taskId, k);
          if (res.status === 201 && res.id) ids.push(res.id);
          return res.status === 201;
        }),
        100,
      );
      if (ids.length === 0) return void missing(bench, label('upload'), `failed: no upload succeeded`);
      const problem = await settled(bench, ids);
      if (problem) return void missing(bench, label('download'), `failed: ${problem}`);
      const { result: down, peakRss: downPeak } = await withRssSampling(
        bench.service,
        timed(seconds, async (k) => {
          const res = await downloadOne(bench, ids[k % ids.length]!);
          return res.status === 200 && res.bytes === FILE_BYTES;
        }),
        100,
      );
      const floor = await floorPasses(seconds);
      for (const [what, pass, peak, floorPass] of [
        ['POST /tasks/{id}/attachments', up, upPeak, floor.up],
        ['GET /attachments/{id}/download', down, downPeak, floor.down],
      ] as const) {
        const growth = (peak - base) / MB;
        bench.rows.push(
          row(label(what), 'service', pass, {
            rssMb: peak / MB,
            ratioRps: mbps(pass) / mbps(floorPass),
            goal: `RSS within +${RSS_GROWTH_LIMIT_MB} MB while streaming (no buffering), no errors`,
            met: growth <= RSS_GROWTH_LIMIT_MB && pass.errors === 0,
            note: `${mbps(pass).toFixed(0)} MB/s vs fs floor ${mbps(floorPass).toFixed(0)} MB/s; RSS ${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MB over ${(base / MB).toFixed(0)} MB at start`,
          }),
          row(`16 floor: fs streams, ${what.startsWith('POST') ? 'write + fsync' : 'read'}`, 'floor-b', floorPass, {
            note: `${mbps(floorPass).toFixed(0)} MB/s`,
          }),
        );
      }
      // The records go; their bytes stay until the orphan sweep's grace period has passed.
      for (const id of ids) await call(bench, 'DELETE', `/attachments/${id}`);
    }),
};
