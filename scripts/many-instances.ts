// `npm run many-instances`: several servers and workers on one PostgreSQL behind PgBouncer in transaction mode,
// under a read and write load; exits 1 on any answer that is not 2xx (decision 0060). PgBouncer is Debian's
// (`apt-get install pgbouncer`); the database is DATABASE_URL, or an embedded one in a throw-away folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig } from '../src/config.ts';
import { startEmbedded } from '../src/db/embedded.ts';
import { pooledConnectQuery } from '../src/db/pooler.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    servers: { type: 'string', default: '3' },
    workers: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '15' },
    connections: { type: 'string', default: '16' },
    pool: { type: 'string', default: '10' },
    'bouncer-pool': { type: 'string', default: '20' },
  },
});
const count = (name: keyof typeof args) => Math.max(0, Math.trunc(Number(args[name])));
const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
const say = (line: string) => console.log(line);

function pgbouncerBinary(): string {
  const found = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'].find((p) => existsSync(p));
  if (!found) throw new Error('PgBouncer is not installed: apt-get install pgbouncer (Debian), then run this again');
  return found;
}

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The direct server: DATABASE_URL, or an embedded one of its own (removed at the end). */
async function directDatabase(dir: string): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const embedded = await startEmbedded({ dataDir: path.join(dir, 'data') });
  cleanups.push(() => embedded.stop());
  const admin = new pg.Client({ connectionString: embedded.url });
  await admin.connect();
  await admin.query('create database svc_many');
  await admin.end();
  const url = new URL(embedded.url);
  url.pathname = '/svc_many';
  return url.href;
}

/** PgBouncer in transaction mode in front of `direct`, with the service's session settings as its connect_query. */
async function startBouncer(dir: string, direct: string): Promise<string> {
  const server = new URL(direct);
  const port = await freePort();
  const user = decodeURIComponent(server.username || 'postgres');
  const password = decodeURIComponent(server.password);
  const target = [
    `host=${server.hostname}`,
    `port=${server.port || 5432}`,
    `dbname=${server.pathname.slice(1) || 'postgres'}`,
    `user=${user}`,
    ...(password ? [`password=${password}`] : []),
    `connect_query='${pooledConnectQuery(loadConfig({}))}'`,
  ].join(' ');
  const ini = `[databases]
svc = ${target}
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${path.join(dir, 'userlist.txt')}
pool_mode = transaction
default_pool_size = ${count('bouncer-pool')}
max_client_conn = 2000
ignore_startup_parameters = extra_float_digits
`;
  await fs.writeFile(path.join(dir, 'userlist.txt'), `"${user}" ""\n`);
  await fs.writeFile(path.join(dir, 'pgbouncer.ini'), ini);
  // PgBouncer refuses to run as root; -u drops to the postgres user, which the folder lets in.
  const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const bouncer = spawn(pgbouncerBinary(), [...asRoot, path.join(dir, 'pgbouncer.ini')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(bouncer);
  // Its log goes to stderr: kept for a failure's message, not printed.
  const log: string[] = [];
  createInterface({ input: bouncer.stderr! }).on('line', (line) => log.push(line));
  const url = new URL(`postgres://127.0.0.1:${port}/svc`);
  url.username = user;
  for (let attempt = 0; ; attempt++) {
    const probe = new pg.Client({ connectionString: url.href });
    try {
      await probe.connect();
      await probe.end();
      return url.href;
    } catch (error) {
      if (attempt > 50 || bouncer.exitCode !== null)
        throw new Error(`PgBouncer did not answer: ${(error as Error).message}\n${log.slice(-5).join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Starts `node <file>` with env; resolves with the first output line matching `ready`. */
function startProcess(file: string, env: NodeJS.ProcessEnv, ready: RegExp, label: string): Promise<RegExpMatchArray> {
  const child = spawn(process.execPath, [file], { cwd: ROOT, env: { ...process.env, ...env } });
  children.push(child);
  return new Promise((resolve, reject) => {
    const onLine = (line: string) => {
      // Workers log JSON lines: their budget line is shown by its message, their warnings and errors whole.
      const budget = /database connections: at most/.test(line);
      if (budget) say(`  ${label}: ${line.startsWith('{') ? (JSON.parse(line) as { msg: string }).msg : line}`);
      else if (/"level":(40|50|60)|"level":"(warn|error|fatal)"|\bwarn|\berror/i.test(line))
        say(`  ${label}: ${line.slice(0, Number(process.env.MANY_LINE ?? 300))}`);
      const match = line.match(ready);
      if (match) resolve(match);
    };
    createInterface({ input: child.stdout! }).on('line', onLine);
    createInterface({ input: child.stderr! }).on('line', onLine);
    child.once('exit', (code) => reject(new Error(`${label} exited (${code}) before it was ready`)));
  });
}

interface Tenant {
  company: string;
  key: string;
}

async function provision(baseUrl: string, token: string): Promise<Tenant> {
  const res = await fetch(`${baseUrl}/operator/companies`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Many instances', timezone: 'Europe/Tallinn' }),
  });
  if (res.status !== 201) throw new Error(`creating the company answered ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as { company_id: string; api_key: { full_key: string } };
  return { company: body.company_id, key: body.api_key.full_key };
}

/** A read-mostly mix against one server: client lists of 50 and of 5, a client created every tenth request. */
function load(baseUrl: string, tenant: Tenant): Promise<autocannon.Result> {
  const headers = { 'x-service-company': tenant.company, 'x-api-key': tenant.key };
  const json = { ...headers, 'content-type': 'application/json' };
  let n = 0;
  return autocannon({
    url: baseUrl,
    connections: count('connections'),
    duration: count('seconds'),
    headers,
    requests: [
      {
        setupRequest: () => {
          n += 1;
          if (n % 10 === 0)
            return {
              method: 'POST',
              path: '/api/v3/clients',
              headers: json,
              body: JSON.stringify({ name: `Load ${n}` }),
            };
          return { method: 'GET', path: n % 2 === 0 ? '/api/v3/clients?limit=50' : '/api/v3/clients?limit=5', headers };
        },
      },
    ],
  });
}

async function serverConnections(direct: string): Promise<number> {
  const client = new pg.Client({ connectionString: direct });
  await client.connect();
  const { rows } = await client.query<{ n: number }>(
    'select count(*)::int as n from pg_stat_activity where datname = current_database()',
  );
  await client.end();
  return rows[0]!.n;
}

async function main(): Promise<number> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-many-'));
  await fs.chmod(dir, 0o755);
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  const direct = await directDatabase(dir);
  const bouncer = await startBouncer(dir, direct);
  say(`PgBouncer (transaction mode) on ${bouncer.replace(/:[^@/]*@/, '@')}`);
  const token = randomBytes(32).toString('hex');
  const env = {
    DATABASE_URL: bouncer,
    DATABASE_DIRECT_URL: direct,
    SVC_DB_POOL_SIZE: String(count('pool')),
    SVC_OPERATOR_TOKEN: token,
    SVC_RATE_LIMIT_READ: '0',
    SVC_RATE_LIMIT_WRITE: '0',
    SVC_RATE_LIMIT_ADDRESS: '0',
    PORT: '0',
    LOG_LEVEL: 'warn',
  };
  // The first server migrates; the others start beside it (they wait on the migration lock).
  const urls: string[] = [];
  for (let i = 0; i < count('servers'); i++) {
    const [, url] = await startProcess('src/main.ts', env, /^listening on (http:\/\/\S+) /, `server ${i + 1}`);
    urls.push(url!);
  }
  for (let i = 0; i < count('workers'); i++)
    // A worker says its budget at info level: that line tells it is up.
    await startProcess(
      'src/worker.ts',
      { ...env, LOG_LEVEL: 'info' },
      /database connections: at most/,
      `worker ${i + 1}`,
    );
  const tenant = await provision(urls[0]!, token);
  say(
    `${urls.length} servers and ${count('workers')} workers; ${count('seconds')} s of load, ${count('connections')} connections each`,
  );
  const results = await Promise.all(urls.map((url) => load(url, tenant)));
  const peak = await serverConnections(direct);
  let failures = 0;
  results.forEach((r, i) => {
    const bad = r.errors + r.timeouts + r.non2xx;
    failures += bad;
    const statuses = Object.entries(r.statusCodeStats ?? {})
      .map(([code, stats]) => `${code} × ${(stats as { count: number }).count}`)
      .join(', ');
    say(
      `  server ${i + 1}: ${r.requests.total} requests, ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms, ${bad} not 2xx or failed (${statuses}; ${r.errors} errors, ${r.timeouts} time-outs)`,
    );
  });
  const total = results.reduce((sum, r) => sum + r.requests.total, 0);
  say(`${total} requests, ${failures} not 2xx or failed; the database served ${peak} connections after the load`);
  return failures === 0 && total > 0 ? 0 : 1;
}

/** Services first (they drain), then PgBouncer, then the database. */
async function cleanup(): Promise<void> {
  for (const child of [...children].reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  for (const step of cleanups.reverse()) await step().catch(() => {});
}

main().then(
  async (code) => {
    await cleanup();
    process.exit(code);
  },
  async (error) => {
    console.error(`many-instances: ${(error as Error).message}`);
    await cleanup();
    process.exit(1);
  },
);
