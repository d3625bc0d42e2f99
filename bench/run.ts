// `npm run bench -- [--db=embedded|postgres|both] [--scale=1] [--duration=10] [--only=1,4]`
// For each database: a fresh database, the seeded data set, the service and the floors each in a
// child process, every scenario loaded by autocannon in a process of its own; then one table,
// JSON under bench/results/ and a Markdown section for BENCHMARKS.md. See BENCHMARKS.md.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { parseArgs, USAGE, type BenchArgs } from './args.ts';
import { openBenchDatabase } from './database.ts';
import { seedDatabase } from './seed.ts';
import { startServer, type ServerChild } from './processes.ts';
import { floorA, selectScenarios, type Scenario } from './scenarios.ts';
import type { Bench } from './harness.ts';
import type { CompanyData } from './requests.ts';
import type { Memory } from './child.ts';
import type { SeededCompany } from './plan.ts';
import { formatTable, machineMeta, writeResults, type Row, type RunMeta } from './report.ts';

const log = (line: string) => console.log(line);
const RESULTS = path.join(import.meta.dirname, 'results');
const YEAR_MS = 366 * 86_400_000;

function companyData(c: SeededCompany): CompanyData {
  const personal = c.keys.find((k) => k.kind === 'personal')!;
  return {
    id: c.id,
    keys: c.keys.map((k) => ({ key: k.fullKey, canWrite: k.canWrite })),
    clients: c.ranges.clients,
    tasks: c.ranges.tasks,
    people: c.ranges.people,
    entries: c.entries,
    bigInvoices: { first: c.ranges.invoices.first, count: c.bigInvoices },
    taxes: c.ranges.taxes,
    member: { personId: c.ranges.people.first + personal.personIndex, key: personal.fullKey },
  };
}

/** The service exactly as deployed, but with the rate limits off (SVC_RATE_LIMIT_*=0) and without Redis. */
function serverEnv(args: BenchArgs, url: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: url,
    REDIS_URL: '',
    LOG_LEVEL: args.logLevel,
    SVC_RATE_LIMIT_READ: '0',
    SVC_RATE_LIMIT_WRITE: '0',
    SVC_RATE_LIMIT_ADDRESS: '0',
  };
}

/** Writes the seed's WAL out now, so a checkpoint's I/O does not land in the first measurements. */
async function checkpoint(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client
    .query('CHECKPOINT')
    .catch(() => log('(CHECKPOINT refused: not a superuser; the first measurements may see its I/O)'));
  await client.end();
}

interface Servers {
  service: ServerChild;
  floors: ServerChild;
}

async function startServers(kind: string, env: NodeJS.ProcessEnv): Promise<Servers> {
  const service = await startServer('service', 'server.ts', env, path.join(RESULTS, `service-${kind}.log`));
  try {
    return { service, floors: await startServer('floors', 'floors.ts', env, path.join(RESULTS, `floors-${kind}.log`)) };
  } catch (error) {
    await service.stop();
    throw error;
  }
}

async function stopServers(servers: Servers): Promise<void> {
  await Promise.all([servers.service.stop(), servers.floors.stop()]);
}

/**
 * Each scenario gets a fresh service and floor process: its RSS column is its own, not what an
 * earlier scenario left behind, and `--only=N` measures what a full run measures.
 */
async function runScenarios(
  args: BenchArgs,
  kind: string,
  env: NodeJS.ProcessEnv,
  companies: CompanyData[],
  scenarios: Scenario[],
) {
  let epochs = 0;
  const rows: Row[] = [];
  const run = async (body: (bench: Bench) => Promise<void>) => {
    const servers = await startServers(kind, env);
    try {
      // Writes go after the seeded three years, each measurement in a year of its own.
      await body({
        args,
        ...servers,
        databaseUrl: env.DATABASE_URL!,
        companies,
        rows,
        log,
        nextEpoch: () => Date.UTC(2030, 0, 1) + epochs++ * YEAR_MS,
      });
    } finally {
      await stopServers(servers);
    }
  };
  let idle: Memory | undefined;
  await run(async (bench) => {
    idle = await bench.service.memory(true);
    await floorA(bench);
  });
  for (const scenario of scenarios) await run((bench) => scenario.run(bench));
  return { rows, serviceIdleRssMb: idle!.rss / 1024 / 1024 };
}

async function runOn(
  kind: 'embedded' | 'postgres',
  args: BenchArgs,
  scenarios: Scenario[],
): Promise<{ meta: RunMeta; rows: Row[] }> {
  log(`\n== ${kind}: preparing a fresh database`);
  const database = await openBenchDatabase(kind, args.keep, log);
  try {
    log(`PostgreSQL ${database.version} at ${database.location}; seeding scale ${args.scale} (seed ${args.seed})`);
    const seeded = await seedDatabase(database.url, {
      scale: args.scale,
      seed: args.seed,
      templateRows: args.templateRows,
      log,
    });
    log(
      `seeded in ${seeded.seconds.toFixed(1)} s: ${Object.entries(seeded.rows)
        .map(([t, n]) => `${n} ${t}`)
        .join(', ')}`,
    );
    await checkpoint(database.url);
    log(`${args.connections} connections, ${args.duration} s per measurement after ${args.warmup} s of warm-up`);
    const { rows, serviceIdleRssMb } = await runScenarios(
      args,
      kind,
      serverEnv(args, database.url),
      seeded.companies.map(companyData),
      scenarios,
    );
    const meta: RunMeta = {
      ...machineMeta(),
      database: kind,
      pgVersion: database.version,
      scale: args.scale,
      seed: args.seed,
      seedSeconds: seeded.seconds,
      seededRows: seeded.rows,
      duration: args.duration,
      warmup: args.warmup,
      connections: args.connections,
      serviceIdleRssMb,
    };
    return { meta, rows };
  } finally {
    await database.teardown();
    if (args.keep)
      log(
        `kept: ${database.location}${kind === 'embedded' ? ' (start it with SVC_DATA_DIR=<that dir> npm start)' : ''}`,
      );
  }
}

async function main(): Promise<void> {
  if (process.argv.includes('--help')) return void log(USAGE);
  const args = parseArgs(process.argv.slice(2));
  const scenarios = selectScenarios(args.only);
  await mkdir(RESULTS, { recursive: true });
  const started = performance.now();
  const runs: Array<{ meta: RunMeta; rows: Row[] }> = [];
  for (const kind of args.db) runs.push(await runOn(kind, args, scenarios));
  for (const run of runs) {
    run.meta.totalSeconds = (performance.now() - started) / 1000;
    log(
      `\n${run.meta.database} (PostgreSQL ${run.meta.pgVersion}), scale ${run.meta.scale}, ${run.meta.connections} connections, ${run.meta.duration} s, node ${run.meta.node}, ${run.meta.cores} cores\n`,
    );
    log(formatTable(run.rows));
  }
  const files = await writeResults(runs);
  log(`\nwritten: ${files.map((f) => path.relative(process.cwd(), f)).join(', ')}`);
  log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
