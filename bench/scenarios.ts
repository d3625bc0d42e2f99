// The scenarios of the benchmark (issue 5; 8-11 from the finance issue), each measured against its floor (b) where one applies.
import { floorDrift, guarded, measure, pairRows, probe, readTarget, rowOf, send, type Bench } from './harness.ts';
import { MIXED_PARTS, type GenKind, type GenSpec, type MixedPart } from './requests.ts';
import { gen, largest, missing, tag } from './scenario-kit.ts';
import { contractCreate, invoiceFinalize } from './scenarios-finance.ts';
import { billClient, kpiSummary, missedBilling } from './scenarios-billing.ts';
import { workflowApply } from './scenarios-workflows.ts';
import { filesTransfer } from './scenarios-files.ts';
import { WEB_SCENARIOS } from './scenarios-web.ts';
import type { Row } from './report.ts';
import type { Memory } from './child.ts';

export interface Scenario {
  id: number;
  name: string;
  run(bench: Bench): Promise<void>;
}

const MB = 1024 * 1024;
const RSS_LIMIT_MB = 250;
const PAGE = 200;

/** Reads 1-3: one probe, then the service and floor (b) under the same load, judged by the read target. */
function readScenario(id: number, name: string, label: string, kind: GenKind): Scenario {
  return {
    id,
    name,
    run: (bench) =>
      guarded(bench, label, async () => {
        const spec = gen(bench, kind, id * 101);
        const first = await probe(bench, spec);
        if (first.problem) return void missing(bench, label, first.problem);
        const drift = await floorDrift(bench, first.req, first.answer);
        const service = await measure(bench, bench.service, spec);
        const floor = await measure(bench, bench.floors, spec);
        bench.rows.push(...pairRows(label, service, floor, readTarget, drift));
      }),
  };
}

interface Checkpoint {
  page: number;
  service: string;
  floor: string;
  walkMs: number;
}

/** Pages 1, 100 and 5,000, or their equivalents in a smaller data set: first, early, last. */
function checkpointsFor(entries: number): number[] {
  const pages = Math.max(1, Math.ceil(entries / PAGE));
  return [...new Set([1, Math.min(100, Math.max(2, Math.floor(pages / 2))), Math.min(5000, pages)])].filter(
    (p) => p <= pages,
  );
}

/** Follows next_cursor from page 1, noting each checkpoint's URL (and keyset, for the floor) and its serial time. */
async function walk(
  bench: Bench,
  wanted: number[],
): Promise<{ checkpoints: Checkpoint[]; pages: number; seconds: number; problem?: string }> {
  const company = largest(bench);
  const headers = { 'x-service-company': company.id, 'x-api-key': company.keys[0]!.key };
  const started = performance.now();
  const checkpoints: Checkpoint[] = [];
  let service = `/api/v3/time-entries?limit=${PAGE}`;
  let floor = service;
  for (let page = 1; page <= wanted[wanted.length - 1]!; page++) {
    const t0 = performance.now();
    const answer = await send(bench.service, { method: 'GET', path: service, headers });
    const ms = performance.now() - t0;
    if (answer.status !== 200)
      return {
        checkpoints,
        pages: page - 1,
        seconds: 0,
        problem: `page ${page} answered ${answer.status} ${answer.body?.error?.code ?? ''}`,
      };
    if (wanted.includes(page)) checkpoints.push({ page, service, floor, walkMs: ms });
    const last = answer.body.data[answer.body.data.length - 1];
    const next = answer.body.meta?.next_cursor;
    const seconds = (performance.now() - started) / 1000;
    if (!next || !last) return { checkpoints, pages: page, seconds };
    if (seconds > bench.args.walkTimeout)
      return {
        checkpoints,
        pages: page,
        seconds,
        problem: `walk stopped at page ${page} after ${seconds.toFixed(0)} s`,
      };
    service = `/api/v3/time-entries?limit=${PAGE}&cursor=${encodeURIComponent(next)}`;
    floor = `/api/v3/time-entries?limit=${PAGE}&after_start=${encodeURIComponent(last.start)}&after_id=${last.id}`;
  }
  return { checkpoints, pages: wanted[wanted.length - 1]!, seconds: (performance.now() - started) / 1000 };
}

/** One checkpoint page loaded on its own: the service with its cursor, floor (b) with the same keyset. */
async function measurePage(bench: Bench, point: Checkpoint) {
  const spec = gen(bench, 'fixed', 4, { path: point.service });
  const check = await probe(bench, spec);
  const drift = await floorDrift(bench, check.req, check.answer, { ...check.req, path: point.floor });
  const service = await measure(bench, bench.service, spec);
  const floor = await measure(bench, bench.floors, { ...spec, path: point.floor });
  return { service, floor, drift };
}

const cursorWalk: Scenario = {
  id: 4,
  name: 'cursor-walk',
  run: (bench) =>
    guarded(bench, '4 cursor walk GET /time-entries?limit=200', async () => {
      const first = await probe(bench, gen(bench, 'fixed', 4, { path: `/api/v3/time-entries?limit=${PAGE}` }));
      if (first.problem) return void missing(bench, '4 cursor walk GET /time-entries', first.problem);
      const wanted = checkpointsFor(largest(bench).entries);
      const result = await walk(bench, wanted);
      const perPage =
        result.seconds > 0
          ? `walk: ${result.pages} pages in ${result.seconds.toFixed(1)} s (${((result.seconds * 1000) / result.pages).toFixed(1)} ms/page serial)`
          : '';
      let page1: number | undefined;
      for (const point of result.checkpoints) {
        const { service, floor, drift } = await measurePage(bench, point);
        page1 ??= service.load.p50;
        const isLast = point === result.checkpoints[result.checkpoints.length - 1] && point.page > 1;
        const judge = isLast
          ? () => ({
              goal: `p50 ≤ 1.5× page 1${result.problem ? ` (${result.problem})` : ''}`,
              met: !result.problem && service.load.p50 <= 1.5 * page1!,
            })
          : undefined;
        const note = [drift, `serial ${point.walkMs.toFixed(1)} ms`, point.page === 1 ? perPage : '']
          .filter(Boolean)
          .join('; ');
        bench.rows.push(...pairRows(`4 cursor page ${point.page}`, service, floor, judge, note));
      }
      for (const page of wanted.filter((p) => !result.checkpoints.some((c) => c.page === p))) {
        missing(bench, `4 cursor page ${page}`, `not reached: ${result.problem ?? 'the list ended first'}`);
      }
    }),
};

const entryCreate: Scenario = {
  id: 5,
  name: 'entry-create',
  run: (bench) =>
    guarded(bench, '5 POST /time-entries', async () => {
      const label = '5 POST /time-entries (Idempotency-Key)';
      const first = await probe(
        bench,
        gen(bench, 'entry-create', 5, { epochMs: bench.nextEpoch(), tag: tag('probe') }),
      );
      if (first.problem) return void missing(bench, label, first.problem);
      const service = await measure(
        bench,
        bench.service,
        gen(bench, 'entry-create', 5, { epochMs: bench.nextEpoch(), tag: tag('create') }),
      );
      const floor = await measure(
        bench,
        bench.floors,
        gen(bench, 'entry-create', 5, { epochMs: bench.nextEpoch(), tag: tag('floor') }),
      );
      bench.rows.push(...pairRows(label, service, floor));
    }),
};

const entriesBulk: Scenario = {
  id: 6,
  name: 'entries-bulk',
  run: (bench) =>
    guarded(bench, '6 POST /time-entries/bulk', async () => {
      const label = '6 POST /time-entries/bulk (200 entries)';
      const spec = (name: string) =>
        gen(bench, 'entries-bulk', 6, { epochMs: bench.nextEpoch(), tag: tag(name), bulkSize: 200 });
      const first = await probe(bench, spec('probe'));
      if (first.problem) return void missing(bench, label, first.problem);
      bench.rows.push(
        ...pairRows(
          label,
          await measure(bench, bench.service, spec('bulk')),
          await measure(bench, bench.floors, spec('floor')),
        ),
      );
      // The latency target is about one bulk on its own: 50 concurrent bulks on two cores mostly measure queueing.
      const service = await measure(bench, bench.service, spec('serial'), 1);
      const floor = await measure(bench, bench.floors, spec('floor-serial'), 1);
      const judge = () => ({ goal: 'p50 < 100 ms', met: service.load.p50 < 100 });
      bench.rows.push(...pairRows(`${label}, 1 connection`, service, floor, judge));
    }),
};

/** 80% reads, 20% writes across every company and key, run several times to see whether memory keeps growing. */
const mixed: Scenario = {
  id: 7,
  name: 'mixed',
  run: (bench) =>
    guarded(bench, '7 mixed', async () => {
      const skip: MixedPart[] = [];
      const notes: string[] = [];
      for (const part of MIXED_PARTS) {
        const first = await probe(bench, gen(bench, part, 7, { epochMs: bench.nextEpoch(), tag: tag('probe') }));
        if (first.problem) {
          skip.push(part);
          notes.push(`${part} left out (${first.problem})`);
        }
      }
      const settled: Memory[] = [];
      for (let run = 1; run <= bench.args.mixedRuns; run++) {
        const spec: GenSpec = {
          kind: 'mixed',
          companies: bench.companies,
          seed: 70 + run,
          epochMs: bench.nextEpoch(),
          tag: tag(`mixed${run}`),
          skip,
        };
        const m = await measure(bench, bench.service, spec);
        settled.push(await bench.service.memory(true));
        const after = settled[settled.length - 1]!;
        const row: Row = rowOf(`7 mixed 80/20, run ${run}`, 'service', m, {
          goal: `peak RSS < ${RSS_LIMIT_MB} MB`,
          met: m.rssMb < RSS_LIMIT_MB,
          note: [
            `after GC: RSS ${(after.rss / MB).toFixed(0)} MB, heap ${(after.heapUsed / MB).toFixed(1)} MB used of ${(after.heapTotal / MB).toFixed(0)} MB, external ${(after.external / MB).toFixed(0)} MB`,
            run === 1 ? notes.join('; ') : '',
          ]
            .filter(Boolean)
            .join('; '),
        });
        if (run === bench.args.mixedRuns && run > 1) {
          const growth = (after.heapUsed - settled[0]!.heapUsed) / MB;
          row.goal += `; heap after GC not growing (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB since run 1)`;
          row.met = row.met! && after.heapUsed <= settled[0]!.heapUsed * 1.1 + 2 * MB;
        }
        bench.rows.push(row);
      }
    }),
};

export const SCENARIOS: Scenario[] = [
  readScenario(1, 'client-get', '1 GET /clients/{id}', 'client-get'),
  readScenario(2, 'clients-list', '2 GET /clients?limit=50', 'clients-list'),
  readScenario(3, 'tasks-list', '3 GET /tasks?status=in_progress&assignee_id=..&limit=50', 'tasks-list'),
  cursorWalk,
  entryCreate,
  entriesBulk,
  mixed,
  readScenario(8, 'invoice-get', '8 GET /invoices/{id} (200 rows inlined)', 'invoice-get'),
  readScenario(9, 'invoices-list', '9 GET /invoices?limit=50', 'invoices-list'),
  contractCreate,
  invoiceFinalize,
  missedBilling,
  billClient,
  kpiSummary,
  workflowApply,
  filesTransfer,
  ...WEB_SCENARIOS,
];

export function selectScenarios(only: string[] | undefined): Scenario[] {
  if (!only) return SCENARIOS;
  const chosen = SCENARIOS.filter((s) => only.includes(String(s.id)) || only.includes(s.name));
  const unknown = only.filter((o) => !SCENARIOS.some((s) => String(s.id) === o || s.name === o));
  if (unknown.length)
    throw new Error(
      `unknown scenario ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => `${s.id} ${s.name}`).join(', ')}`,
    );
  return chosen;
}

/** Floor (a): HTTP and Fastify alone, the ceiling no route can pass. */
export async function floorA(bench: Bench): Promise<void> {
  await guarded(bench, 'floor (a): GET /ok {ok:true}', async () => {
    bench.rows.push(
      rowOf('floor (a): GET /ok {ok:true}', 'floor-a', await measure(bench, bench.floors, gen(bench, 'ok', 1))),
    );
  });
}
