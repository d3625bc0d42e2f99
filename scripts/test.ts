// The test command: one PostgreSQL for the run (embedded in a throw-away directory, or TEST_DATABASE_URL),
// one migrated template database, and node:test running the files in parallel, each cloning the template.
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { admin, createMigrated, dropDatabases, startServer, withDatabase } from './pg-server.ts';
import { schemaDrift } from './schema-drift.ts';
import { buildWeb } from './build-web.ts';

const RUN_ID = `${Date.now().toString(36)}${process.pid.toString(36)}`;
const TEMPLATE = `svc_tpl_${RUN_ID}`;

async function findTests(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await findTests(full)));
    else if (entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out.sort();
}

/**
 * The browser tests need the web application as the sources are now, and a Chromium: the one inside
 * @sparticuz/chromium, unpacked here once per run (test files in parallel would race to unpack it).
 */
async function prepareBrowserTests(): Promise<void> {
  const built = await buildWeb();
  if (built) console.log(built);
  process.env.TEST_CHROMIUM ||= await (await import('./chromium.ts')).chromiumPath();
}

async function main(): Promise<number> {
  const server = await startServer(process.env.TEST_DATABASE_URL);
  const adminUrl = withDatabase(server.url, 'postgres');
  try {
    const version = await admin(adminUrl, async (c) => (await c.query('show server_version')).rows[0].server_version);
    console.log(`tests on PostgreSQL ${version} (${server.embedded ? 'embedded' : 'TEST_DATABASE_URL'})`);
    const templateUrl = await createMigrated(server.url, TEMPLATE);
    // A stale src/db/schema.ts would let code compile against tables that are not there: stop before any test.
    const drift = await schemaDrift(templateUrl);
    if (drift) {
      console.error(drift);
      return 1;
    }
    const files = process.argv.length > 2 ? process.argv.slice(2) : await findTests('test');
    await prepareBrowserTests();
    const concurrency = Number(process.env.TEST_CONCURRENCY ?? Math.max(2, os.availableParallelism() + 1));
    return await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...files], {
        stdio: 'inherit',
        env: { ...process.env, TEST_PG_ADMIN_URL: adminUrl, TEST_PG_TEMPLATE: TEMPLATE, TEST_RUN_ID: RUN_ID },
      });
      child.on('exit', (code) => resolve(code ?? 1));
    });
  } finally {
    await dropDatabases(adminUrl, [TEMPLATE], `svc_t_${RUN_ID}_%`).catch((e) =>
      console.error('cleanup failed:', e.message),
    );
    await server.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
