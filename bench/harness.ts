// What the scenarios share: the running servers, the seeded companies, a probe (one real request,
// to tell a missing route from a working one before loading it) and a measurement (one load
// generator process, with the target's memory sampled meanwhile).
import pg from 'pg';
import type { BenchArgs } from './args.ts';
import { runLoad, withRssSampling, type CpuSample, type ServerChild } from './processes.ts';
import { makeGenerator, type CompanyData, type GenSpec, type Req } from './requests.ts';
import type { LoadResult } from './load.ts';
import type { Row, Target } from './report.ts';

export interface Bench {
  args: BenchArgs;
  service: ServerChild;
  floors: ServerChild;
  databaseUrl: string;
  /** Company 0 is the largest. */
  companies: CompanyData[];
  rows: Row[];
  log(line: string): void;
  /** A fresh stretch of time for writes: every call is a year after the previous one. */
  nextEpoch(): number;
}

export interface Answer {
  status: number;
  body: any;
}

export async function send(server: ServerChild, req: Req): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${server.port}${req.path}`, {
    method: req.method,
    headers: req.headers,
    body: req.body,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: response.status, body };
}

/** undefined when the service answers 2xx; else the row status: 'route missing' for a 404 of the router itself. */
export function problemOf(answer: Answer): string | undefined {
  if (answer.status >= 200 && answer.status < 300) return undefined;
  const error = answer.body?.error;
  if (answer.status === 404 && typeof error?.message === 'string' && error.message.startsWith('No route'))
    return 'route missing';
  return `failed: probe answered ${answer.status} ${error?.code ?? ''} ${error?.message ?? String(answer.body).slice(0, 120)}`.trim();
}

/** The probe's first request, sent to the service; a non-2xx answer becomes a row instead of a load run. */
export async function probe(bench: Bench, gen: GenSpec): Promise<{ problem?: string; answer: Answer; req: Req }> {
  const req = makeGenerator(gen)();
  const answer = await send(bench.service, req);
  return { problem: problemOf(answer), answer, req };
}

const ids = (body: any): string => {
  const data = body?.data;
  if (Array.isArray(data)) return data.map((r: { id: number }) => r.id).join(',');
  return data ? `${data.id}:${Array.isArray(data.contacts) ? data.contacts.length : ''}` : '';
};

/** The field names of the answer's first record. */
const fieldsOf = (body: any): string[] => {
  const record = Array.isArray(body?.data) ? body.data[0] : body?.data;
  return record && typeof record === 'object' ? Object.keys(record).sort() : [];
};

/**
 * A note when floor (b) answers the same request with other records, or with records of other fields, than
 * the service: its SQL has drifted, or it skips work the service's answer needs.
 */
export async function floorDrift(
  bench: Bench,
  req: Req,
  service: Answer,
  floorReq: Req = req,
): Promise<string | undefined> {
  const floor = await send(bench.floors, floorReq);
  if (floor.status >= 300) return `floor (b) answered ${floor.status}: check bench/floors.ts`;
  if (ids(floor.body) !== ids(service.body))
    return 'floor (b) returned other records than the service: check bench/floors.ts';
  const floorFields = new Set(fieldsOf(floor.body));
  const serviceFields = new Set(fieldsOf(service.body));
  const missing = [...serviceFields].filter((f) => !floorFields.has(f));
  const extra = [...floorFields].filter((f) => !serviceFields.has(f));
  if (missing.length === 0 && extra.length === 0) return undefined;
  const parts = [missing.length ? `lacks ${missing.join(', ')}` : '', extra.length ? `adds ${extra.join(', ')}` : ''];
  return `floor (b) ${parts.filter(Boolean).join(' and ')}: check bench/floors.ts`;
}

export interface Measured {
  load: LoadResult;
  rssMb: number;
  /** The server's CPU time per answered request over the measured window (after warm-up), in ms. */
  cpuMsPerReq?: number;
}

/**
 * CPU per request over the measured window: CPU time between the first sample after the warm-up and the
 * last sample, over the requests answered meanwhile (req/s × seconds). Wall-clock throughput on a shared
 * machine moves with whatever else runs; the CPU a request costs the process moves far less.
 */
export function cpuPerRequest(samples: readonly CpuSample[], measuredFrom: number, rps: number): number | undefined {
  const first = samples.find((s) => s.at >= measuredFrom);
  const last = samples[samples.length - 1];
  if (!first || !last || last.at - first.at < 1000 || rps <= 0) return undefined;
  const cpuMs = (last.cpuMicros - first.cpuMicros) / 1000;
  return cpuMs / ((rps * (last.at - first.at)) / 1000);
}

const QUIESCE_LIMIT_MS = 60_000;
const QUIESCE_GRACE_MS = 2_000;
const BUSY = `from pg_stat_activity where datname = current_database() and state <> 'idle' and application_name in ('service-api', 'bench-floor')`;

/**
 * Waits until no query of the service or the floors is still running: a load generator that stops
 * leaves the queries of its last requests behind, and the next measurement must not compete with
 * them. Nobody waits for their answers any more, so after a grace period they are cancelled.
 */
export async function quiesce(bench: Bench): Promise<void> {
  const client = new pg.Client({ connectionString: bench.databaseUrl, application_name: 'bench-harness' });
  await client.connect();
  try {
    const started = Date.now();
    let cancelled = false;
    while (Date.now() - started < QUIESCE_LIMIT_MS) {
      if ((await client.query(`select count(*)::int as n ${BUSY}`)).rows[0].n === 0) return;
      if (!cancelled && Date.now() - started > QUIESCE_GRACE_MS) {
        await client.query(`select pg_cancel_backend(pid) ${BUSY}`);
        cancelled = true;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await client.end();
  }
}

export async function measure(
  bench: Bench,
  target: ServerChild,
  gen: GenSpec,
  connections = bench.args.connections,
): Promise<Measured> {
  const { args } = bench;
  const task = runLoad({
    url: `http://127.0.0.1:${target.port}`,
    connections,
    duration: args.duration,
    warmup: args.warmup,
    gen,
  });
  const measuredFrom = Date.now() + args.warmup * 1000;
  const { result, peakRss, cpu } = await withRssSampling(target, task);
  await quiesce(bench);
  const cpuMsPerReq = cpuPerRequest(cpu, measuredFrom, result.rps);
  bench.log(
    `    ${target.name.padEnd(8)} ${gen.kind.padEnd(13)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  errors ${result.errors}`,
  );
  return { load: result, rssMb: peakRss / 1024 / 1024, cpuMsPerReq };
}

export function rowOf(scenario: string, target: Target, m: Measured, extra: Partial<Row> = {}): Row {
  const errors = m.load.errors;
  const codes = Object.entries(m.load.statusCodes)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, n]) => `${n}×${code}`);
  const note = [extra.note, codes.length ? `non-2xx: ${codes.join(' ')}` : ''].filter(Boolean).join('; ') || undefined;
  return {
    scenario,
    target,
    status: 'ok',
    rps: m.load.rps,
    p50: m.load.p50,
    p99: m.load.p99,
    errors,
    rssMb: m.rssMb,
    cpuMsPerReq: m.cpuMsPerReq,
    ...extra,
    note,
  };
}

/** The service row with its ratios to floor (b), then the floor row. `goal` judges the service row. */
export function pairRows(
  scenario: string,
  service: Measured,
  floor: Measured,
  judge?: (ratioRps: number, ratioP99: number) => { goal: string; met: boolean },
  note?: string,
): Row[] {
  const ratioRps = service.load.rps / Math.max(floor.load.rps, 1e-9);
  const ratioP99 = service.load.p99 / Math.max(floor.load.p99, 1e-9);
  const ratioCpu =
    service.cpuMsPerReq !== undefined && floor.cpuMsPerReq ? service.cpuMsPerReq / floor.cpuMsPerReq : undefined;
  const judged = judge ? judge(ratioRps, ratioP99) : {};
  return [
    rowOf(scenario, 'service', service, { ratioRps, ratioP99, ratioCpu, ...judged, note }),
    rowOf(`floor (b): ${scenario}`, 'floor-b', floor),
  ];
}

/** Reads (1-3): at least 0.6 of floor (b)'s throughput, p99 at most 1.5 times floor (b)'s. */
export const readTarget = (ratioRps: number, ratioP99: number) => ({
  goal: 'req/s ≥ 0.6× and p99 ≤ 1.5× floor b',
  met: ratioRps >= 0.6 && ratioP99 <= 1.5,
});

/** Runs a scenario's body; a failure becomes a row so the rest of the run goes on. */
export async function guarded(bench: Bench, scenario: string, body: () => Promise<void>): Promise<void> {
  bench.log(`- ${scenario}`);
  try {
    await body();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause ? ` (${cause.code ?? cause.message})` : '';
    bench.rows.push({
      scenario,
      target: 'service',
      status: `failed: ${(error as Error).message.split('\n')[0]}${why}`,
    });
  }
}
