// Command-line flags of the harness: `--name=value` or a bare `--name` (true). Unknown flags are refused
// so a typo (`--scal=1`) cannot silently run the 30-minute default.

export interface BenchArgs {
  db: Array<'embedded' | 'postgres'>;
  scale: number;
  seed: number;
  /** Workflow-template master tasks seeded per company, as a multiple of its task rows (issue 13). */
  templateRows: number;
  /** Seconds each measured load lasts. */
  duration: number;
  /** Seconds of unmeasured load before each measurement (JIT, pools, caches). */
  warmup: number;
  connections: number;
  only: string[] | undefined;
  /** Runs of the mixed workload, to see whether memory grows from one to the next. */
  mixedRuns: number;
  /** Seconds the cursor walk may take before it stops where it got to. */
  walkTimeout: number;
  logLevel: string;
  /** Keep the data directory / database afterwards (to inspect plans with EXPLAIN ANALYZE). */
  keep: boolean;
}

const KNOWN = new Set([
  'db',
  'scale',
  'seed',
  'template-rows',
  'duration',
  'warmup',
  'connections',
  'only',
  'mixed-runs',
  'walk-timeout',
  'log-level',
  'keep',
  'help',
]);

export function rawFlags(argv: readonly string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z][a-z-]*)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`unexpected argument "${arg}" (flags look like --scale=0.01)`);
    flags.set(match[1]!, match[2] ?? 'true');
  }
  return flags;
}

function number(flags: Map<string, string>, name: string, fallback: number, min: number): number {
  const raw = flags.get(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`--${name} must be a number >= ${min}, got "${raw}"`);
  return value;
}

function databases(raw: string | undefined): BenchArgs['db'] {
  const value = raw ?? 'embedded';
  if (value === 'embedded' || value === 'postgres') return [value];
  if (value === 'both') return ['embedded', 'postgres'];
  throw new Error(`--db must be embedded, postgres or both, got "${value}"`);
}

export function parseArgs(argv: readonly string[]): BenchArgs {
  const flags = rawFlags(argv);
  for (const name of flags.keys()) if (!KNOWN.has(name)) throw new Error(`unknown flag --${name}`);
  const only = flags.get('only');
  return {
    db: databases(flags.get('db')),
    scale: number(flags, 'scale', 1, 0.0001),
    seed: Math.trunc(number(flags, 'seed', 1, 0)),
    templateRows: Math.trunc(number(flags, 'template-rows', 0, 0)),
    duration: number(flags, 'duration', 10, 1),
    warmup: number(flags, 'warmup', 2, 0),
    connections: Math.trunc(number(flags, 'connections', 50, 1)),
    only: only
      ? only
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : undefined,
    mixedRuns: Math.trunc(number(flags, 'mixed-runs', 3, 1)),
    walkTimeout: number(flags, 'walk-timeout', 300, 1),
    logLevel: flags.get('log-level') ?? 'warn',
    keep: flags.get('keep') === 'true',
  };
}

export const USAGE = `npm run bench -- [flags]
  --db=embedded|postgres|both  embedded: a fresh embedded PostgreSQL under the OS temp dir (default);
                               postgres: a throw-away database on the server of DATABASE_URL
  --scale=1          data set size (1 = 20 companies, the largest with 10,000 clients, 1,000,000 time entries)
  --seed=1           seed of the deterministic generator
  --template-rows=0  also seed workflow-template master tasks, N x each company's task rows (N <= 100)
  --duration=10      seconds per measured load
  --warmup=2         seconds of unmeasured load before each measurement
  --connections=50   concurrent connections of the load generator
  --only=a,b         scenarios to run (numbers 1-20 or names: client-get, clients-list, tasks-list,
                     cursor-walk, entry-create, entries-bulk, mixed, invoice-get, invoices-list,
                     contract-create, invoice-finalize, ..., files, web-first-screen, web-build,
                     web-clients-screen, session-vs-key); floor (a) always runs
  --mixed-runs=3     consecutive runs of the mixed workload (memory growth check)
  --walk-timeout=300 seconds the cursor walk may take
  --log-level=warn   service log level (info adds request logging to what is measured)
  --keep             keep the database afterwards and print where it is`;
