import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { listMigrations } from '../../src/db/migrate.ts';
import { makeDataDir, postmasterPid, postmasters, running, runCli, startService, waitUntilStopped } from './support.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const dataDir = await makeDataDir();

interface Created {
  company_id: string;
  owner: { person_id: number; member_id: number; name: string; email: string | null };
  api_key: { id: number; full_key: string; scopes: string[] };
}

test(
  'with no service running, company create --json starts the embedded server, creates the company and stops the server',
  // Each step spawns a fresh Node process and the suite runs files side by side: seconds alone, far more under CI load.
  { timeout: 120_000 },
  async () => {
    const result = await runCli(dataDir, [
      'company',
      'create',
      '--name',
      'Acme',
      '--timezone',
      'Europe/Tallinn',
      '--json',
    ]);
    assert.equal(result.code, 0, result.stderr);
    const created = JSON.parse(result.stdout) as Created;
    assert.match(created.company_id, UUID);
    assert.equal(created.owner.name, 'Owner');
    assert.match(created.api_key.full_key, /^svc_live_/);
    assert.deepEqual(created.api_key.scopes, ['read', 'write', 'admin']);
    assert.deepEqual(await postmasters(dataDir), [], 'no server left running');
    await assert.rejects(fs.access(path.join(dataDir, 'pg', 'postmaster.pid')));
    await assert.rejects(fs.access(path.join(dataDir, 'owner.pid')));

    const human = await runCli(dataDir, [
      'company',
      'create',
      '--name',
      'Beta',
      '--owner-name',
      'Bea',
      '--owner-email',
      'bea@beta.example',
    ]);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /^Created company "Beta" [0-9a-f-]{36}\n/);
    assert.match(human.stdout, /owner: +Bea \(person \d+, member \d+\)/);
    assert.match(human.stdout, /admin key: +svc_live_\S+/);
    assert.match(human.stdout, new RegExp(`embedded PostgreSQL in ${path.join(dataDir, 'pg')}`));
    assert.deepEqual(await postmasters(dataDir), []);
  },
);

test(
  'CLI errors: usage errors exit 2, domain errors exit 1 with a clear message, and nothing is left running',
  { timeout: 120_000 },
  async () => {
    // These fail before any database work, so they can run side by side.
    const [usage, unknown, badOption, badZone, badZoneJson, badRole] = await Promise.all([
      runCli(dataDir, ['company', 'create', '--timezone', 'UTC']),
      runCli(dataDir, ['company', 'delete', '--id', 'x']),
      runCli(dataDir, ['company', 'create', '--name', 'X', '--plan', 'basic']),
      runCli(dataDir, ['company', 'create', '--name', 'X', '--timezone', 'Mars/Olympus']),
      runCli(dataDir, ['company', 'create', '--name', 'X', '--timezone', 'Mars/Olympus', '--json']),
      runCli(dataDir, [
        'member',
        'add',
        '--company',
        '00000000-0000-4000-8000-000000000000',
        '--name',
        'A',
        '--email',
        'a@b.example',
        '--role',
        'boss',
        '--status',
        'active',
      ]),
    ]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /company create: missing --name/);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "company delete"/);
    assert.equal(badOption.code, 2, 'options of another command are refused');
    assert.match(badOption.stderr, /--plan/);
    assert.equal(badZone.code, 1);
    assert.equal(badZone.stderr.trim(), 'error: VALIDATION_ERROR: Unknown time zone: Mars/Olympus');
    assert.equal(badZone.stdout, '');
    assert.equal(badZoneJson.code, 1);
    assert.equal(JSON.parse(badZoneJson.stderr).error.code, 'VALIDATION_ERROR');
    assert.equal(badRole.code, 1);
    assert.match(badRole.stderr, /--role must be one of member, admin, owner/);

    const missing = await runCli(dataDir, [
      'company',
      'update',
      '--id',
      '00000000-0000-4000-8000-000000000000',
      '--plan',
      'basic',
      '--json',
    ]);
    assert.equal(missing.code, 1);
    assert.deepEqual(JSON.parse(missing.stderr), { error: { code: 'NOT_FOUND', message: 'Company not found' } });
    assert.deepEqual(await postmasters(dataDir), [], 'a failed command stops the server it started');

    const help = await runCli(dataDir, ['help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /company update --id <company uuid>/);
  },
);

test(
  'with the service running, the CLI attaches to its server and the service sees what the CLI did',
  { timeout: 120_000 },
  async () => {
    const service = startService(dataDir);
    const [, baseUrl] = await service.waitFor(/^listening on (http:\/\/127\.0\.0\.1:\d+) /);
    const pgPid = await postmasterPid(dataDir);
    assert.deepEqual(await postmasters(dataDir), [pgPid]);

    const result = await runCli(dataDir, ['company', 'create', '--name', 'Live Co', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const created = JSON.parse(result.stdout) as Created;
    assert.deepEqual(await postmasters(dataDir), [pgPid], "no second postmaster; the service's one still runs");
    const v3 = { 'x-service-company': created.company_id, 'x-api-key': created.api_key.full_key };
    const list = await fetch(`${baseUrl}/api/v3/clients`, { headers: v3 });
    assert.equal(list.status, 200, 'the company and key the CLI created work through the running service');

    const member = await runCli(dataDir, [
      'member',
      'add',
      '--company',
      created.company_id,
      '--name',
      'Lia',
      '--surname',
      'Lee',
      '--email',
      'lia@live.example',
      '--role',
      'admin',
      '--status',
      'active',
      '--json',
    ]);
    assert.equal(member.code, 0, member.stderr);
    assert.deepEqual(Object.keys(JSON.parse(member.stdout)).sort(), ['member_id', 'person_id']);

    const update = await runCli(dataDir, [
      'company',
      'update',
      '--id',
      created.company_id,
      '--plan',
      'basic',
      '--feature',
      'drive=true',
      '--json',
    ]);
    assert.equal(update.code, 0, update.stderr);
    const company = JSON.parse(update.stdout);
    assert.equal(company.plan, 'basic');
    assert.deepEqual(company.features, { billing: true, analytics: true, drive: true });
    const gated = await fetch(`${baseUrl}/api/v3/clients`, { headers: v3 });
    assert.equal(gated.status, 403);
    assert.equal(((await gated.json()) as { error: { code: string } }).error.code, 'PLAN_UPGRADE_REQUIRED');

    const lapse = await runCli(dataDir, [
      'company',
      'update',
      '--id',
      created.company_id,
      '--plan',
      'pro',
      '--subscription-status',
      'lapsed',
    ]);
    assert.equal(lapse.code, 0, lapse.stderr);
    assert.match(lapse.stdout, /plan: pro, subscription: lapsed, timezone: UTC/);
    const write = await fetch(`${baseUrl}/api/v3/clients`, {
      method: 'POST',
      headers: { ...v3, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'X' }),
    });
    assert.equal(write.status, 403);
    assert.equal(((await write.json()) as { error: { code: string } }).error.code, 'SUBSCRIPTION_READ_ONLY');

    assert.deepEqual(await postmasters(dataDir), [pgPid], "the CLI left the service's server running");
    service.child.kill('SIGTERM');
    assert.deepEqual(await service.exited, { code: 0, signal: null });
    assert.equal(await waitUntilStopped(pgPid!), true);
  },
);

test(
  'with DATABASE_URL the CLI migrates and writes that database, no embedded server involved',
  { timeout: 120_000 },
  async () => {
    const adminUrl = process.env.TEST_PG_ADMIN_URL!;
    const name = `svc_cli_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const emptyDir = await makeDataDir();
    try {
      const env = { DATABASE_URL: url.toString() };
      const migrate = await runCli(emptyDir, ['migrate', '--json'], env);
      assert.equal(migrate.code, 0, migrate.stderr);
      assert.deepEqual(JSON.parse(migrate.stdout), { applied: await listMigrations() });
      const again = await runCli(emptyDir, ['migrate'], env);
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /up to date; nothing to apply/);
      if (url.password) assert.ok(!again.stdout.includes(url.password), 'the password is never printed');

      const created = await runCli(
        emptyDir,
        ['company', 'create', '--name', 'External', '--currency', 'USD', '--json'],
        env,
      );
      assert.equal(created.code, 0, created.stderr);
      const { company_id } = JSON.parse(created.stdout) as Created;
      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      const { rows } = await db.query('select name, currency, timezone from companies where id = $1', [company_id]);
      await db.end();
      assert.deepEqual(rows, [{ name: 'External', currency: 'USD', timezone: 'UTC' }]);
      await assert.rejects(fs.access(path.join(emptyDir, 'pg')), 'the data dir was not used');
    } finally {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  },
);

/** Starts the embedded server from a process that is then killed: a running server whose owner is gone. */
async function orphanedServer(dataDir: string): Promise<string> {
  const script = `
    import { startEmbedded } from ${JSON.stringify(new URL('../../src/db/embedded.ts', import.meta.url).href)};
    const s = await startEmbedded({ dataDir: process.env.SVC_DATA_DIR });
    console.log(s.url);
    setInterval(() => {}, 1 << 30);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, SVC_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [url] = await once(createInterface({ input: child.stdout! }), 'line');
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
  return url as string;
}

test(
  'a server the CLI adopted stays running when another process connected to it meanwhile',
  { timeout: 120_000 },
  async () => {
    const dir = await makeDataDir();
    const url = await orphanedServer(dir);
    const pgPid = await postmasterPid(dir);
    // Stands for a service that attached while the command ran.
    const other = new pg.Client({ connectionString: url, application_name: 'service-api' });
    await other.connect();
    try {
      const result = await runCli(dir, ['company', 'create', '--name', 'Shared', '--json']);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /stays running: another process connected to it/);
      assert.ok(pgPid && (await running(pgPid)), 'the postmaster was not stopped');
      const { rows } = await other.query('select name from companies');
      assert.deepEqual(rows, [{ name: 'Shared' }], 'the other connection still works and sees the write');
    } finally {
      await other.end();
    }
    // With nobody else connected, the next command adopts the server again and does stop it.
    const alone = await runCli(dir, ['migrate']);
    assert.equal(alone.code, 0, alone.stderr);
    assert.equal(await waitUntilStopped(pgPid!), true);
  },
);
