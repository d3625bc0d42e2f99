// One table for a run: printed to the terminal, written as JSON under bench/results/, and as a
// Markdown section to paste into BENCHMARKS.md ("Results").
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export type Target = 'service' | 'floor-a' | 'floor-b';

export interface Row {
  scenario: string;
  target: Target;
  /** 'ok', 'route missing', or 'failed: why'. */
  status: string;
  rps?: number;
  p50?: number;
  p99?: number;
  errors?: number;
  rssMb?: number;
  /** The server process's CPU time per request over the measured window. */
  cpuMsPerReq?: number;
  /** Service / floor (b): throughput, p99 latency, and CPU per request. */
  ratioRps?: number;
  ratioP99?: number;
  ratioCpu?: number;
  /** The target this row is judged by, and whether it was met (undefined: no target). */
  goal?: string;
  met?: boolean;
  note?: string;
}

export interface RunMeta {
  date: string;
  node: string;
  cores: number;
  cpu: string;
  database: string;
  pgVersion: string;
  scale: number;
  seed: number;
  seedSeconds: number;
  seededRows: Record<string, number>;
  duration: number;
  warmup: number;
  connections: number;
  /** The service's RSS once started, after a collection: what the workloads add to. */
  serviceIdleRssMb: number;
  totalSeconds?: number;
}

export function machineMeta(): Pick<RunMeta, 'date' | 'node' | 'cores' | 'cpu'> {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
  };
}

const fixed = (value: number | undefined, digits: number) => (value === undefined ? '' : value.toFixed(digits));
const ratio = (value: number | undefined) => (value === undefined ? '' : `${value.toFixed(2)}×`);
const verdict = (row: Row) => (row.goal === undefined ? '' : `${row.met ? 'met' : 'MISSED'}: ${row.goal}`);
const who = (row: Row) => (row.target === 'service' ? row.scenario : `  ${row.scenario}`);

function cells(row: Row): string[] {
  if (row.status !== 'ok') return [who(row), row.status, '', '', '', '', '', '', '', '', row.note ?? ''];
  return [
    who(row),
    fixed(row.rps, 0),
    fixed(row.p50, 1),
    fixed(row.p99, 1),
    String(row.errors ?? ''),
    fixed(row.rssMb, 0),
    fixed(row.cpuMsPerReq, 3),
    ratio(row.ratioRps),
    ratio(row.ratioP99),
    ratio(row.ratioCpu),
    [verdict(row), row.note].filter(Boolean).join('; '),
  ];
}

const HEADER = [
  'scenario',
  'req/s',
  'p50 ms',
  'p99 ms',
  'errors',
  'RSS MB',
  'CPU ms/req',
  'req/s vs floor b',
  'p99 vs floor b',
  'CPU/req vs floor b',
  'target / note',
];

export function formatTable(rows: readonly Row[]): string {
  const lines = [HEADER, ...rows.map(cells)];
  const widths = HEADER.map((_, i) => Math.max(...lines.map((l) => (i === HEADER.length - 1 ? 0 : l[i]!.length))));
  return lines
    .map((l) =>
      l.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : i === l.length - 1 ? c : c.padStart(widths[i]!))).join('  '),
    )
    .join('\n');
}

export function formatMarkdown(meta: RunMeta, rows: readonly Row[]): string {
  const head = `### ${meta.database} (PostgreSQL ${meta.pgVersion}): ${meta.date.slice(0, 10)}, Node ${meta.node}, ${meta.cores} cores (${meta.cpu})`;
  const setup =
    `Scale ${meta.scale} (seed ${meta.seed}, seeded in ${meta.seedSeconds.toFixed(0)} s: ${Object.entries(
      meta.seededRows,
    )
      .map(([t, n]) => `${n} ${t}`)
      .join(', ')}); ` +
    `${meta.connections} connections, ${meta.duration} s per measurement after ${meta.warmup} s of warm-up; ` +
    `a fresh service and floor process per scenario (service RSS at start: ${meta.serviceIdleRssMb.toFixed(0)} MB).`;
  const table = [
    `| ${HEADER.join(' | ')} |`,
    `|${HEADER.map((_, i) => (i === 0 || i === HEADER.length - 1 ? '---' : '---:')).join('|')}|`,
    ...rows.map(
      (row) =>
        `| ${cells(row)
          .map((c) => c.trim().replace(/\|/g, '\\|'))
          .join(' | ')} |`,
    ),
  ];
  return [head, '', setup, '', ...table, ''].join('\n');
}

/** Writes `<stamp>-<db>.json` and `<stamp>.md` under bench/results/; returns their paths. */
export async function writeResults(runs: Array<{ meta: RunMeta; rows: Row[] }>): Promise<string[]> {
  const dir = path.join(import.meta.dirname, 'results');
  await mkdir(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
  const files: string[] = [];
  for (const run of runs) {
    const file = path.join(dir, `${stamp}-${run.meta.database}.json`);
    await writeFile(file, JSON.stringify(run, null, 2) + '\n');
    files.push(file);
  }
  const md = path.join(dir, `${stamp}.md`);
  await writeFile(md, runs.map((run) => formatMarkdown(run.meta, run.rows)).join('\n'));
  files.push(md);
  return files;
}
