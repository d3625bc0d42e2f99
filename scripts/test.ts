// The test command: one PostgreSQL for the run (embedded in a throw-away directory, or TEST_DATABASE_URL),
// one migrated template database, and node:test running the files in parallel, each cloning the template.
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbedded, type EmbeddedServer } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';

const RUN_ID = `${Date.now().toString(36)}${process.pid.toString(36)}`;
const TEMPLATE = `svc_tpl_${RUN_ID}`;

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function findTests(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await findTests(full)));
    else if (entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out.sort();
}

async function dropRunDatabases(url: string): Promise<void> {
  await admin(url, async (client) => {
    const { rows } = await client.query<{ datname: string }>(`select datname from pg_database where datname like $1 or datname = $2`, [`svc_t_${RUN_ID}_%`, TEMPLATE]);
    for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
  });
}

async function main(): Promise<number> {
  let embedded: EmbeddedServer | undefined;
  let tmp: string | undefined;
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'svc-test-'));
    await chmod(tmp, 0o755); // the postgres system user must reach the data directory
    embedded = await startEmbedded({ dataDir: tmp });
    serverUrl = embedded.url;
  }
  const adminUrl = withDatabase(serverUrl, 'postgres');
  try {
    const version = await admin(adminUrl, async (c) => (await c.query('show server_version')).rows[0].server_version);
    console.log(`tests on PostgreSQL ${version} (${embedded ? 'embedded' : 'TEST_DATABASE_URL'})`);
    await admin(adminUrl, (c) => c.query(`create database "${TEMPLATE}"`));
    await migrate(withDatabase(serverUrl, TEMPLATE));
    const files = process.argv.length > 2 ? process.argv.slice(2) : await findTests('test');
    const concurrency = Number(process.env.TEST_CONCURRENCY ?? Math.max(2, os.availableParallelism() + 1));
    return await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...files], {
        stdio: 'inherit',
        env: { ...process.env, TEST_PG_ADMIN_URL: adminUrl, TEST_PG_TEMPLATE: TEMPLATE, TEST_RUN_ID: RUN_ID },
      });
      child.on('exit', (code) => resolve(code ?? 1));
    });
  } finally {
    await dropRunDatabases(adminUrl).catch((e) => console.error('cleanup failed:', e.message));
    await embedded?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code), (error) => {
  console.error(error);
  process.exit(1);
});
