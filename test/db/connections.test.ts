// Running out of database connections answers 503 DATABASE_UNAVAILABLE with Retry-After, never 500 (decision 0060).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { connectionShortage } from '../../src/platform/error-handler.ts';
import { connectionBudget, describeBudget } from '../../src/db/pool-budget.ts';
import { checkPooledSettings, pooledConnectQuery } from '../../src/db/pooler.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { sql } from 'kysely';
import { createTestApp } from '../helpers.ts';

const WAIT_MS = 300;
const t = await createTestApp({ pool: { size: 1, waitMs: WAIT_MS } });

test('the pool size and wait are settings with defaults; the budget adds what a process holds', () => {
  assert.deepEqual(loadConfig({}).pool, { size: undefined, waitMs: 10_000 });
  assert.deepEqual(loadConfig({ SVC_DB_POOL_SIZE: '8', SVC_DB_POOL_WAIT: '2.5' }).pool, { size: 8, waitMs: 2_500 });
  assert.throws(() => loadConfig({ SVC_DB_POOL_SIZE: '0' }), /SVC_DB_POOL_SIZE must be at least 1/);
  assert.throws(() => loadConfig({ SVC_DB_POOL_SIZE: 'many' }), /SVC_DB_POOL_SIZE must be a non-negative integer/);
  assert.throws(() => loadConfig({ SVC_DB_POOL_WAIT: '0' }), /SVC_DB_POOL_WAIT must be more than 0 seconds/);
  const defaults = loadConfig({});
  assert.equal(
    describeBudget(connectionBudget(defaults, 'server', true)),
    'database connections: at most 39 (requests and jobs 20, webhook deliveries 18, cache listener 1)',
  );
  const worker = loadConfig({ SVC_WEBHOOK_CONCURRENCY: '2' });
  assert.equal(
    describeBudget(connectionBudget(worker, 'worker', true)),
    'database connections: at most 10 (requests and jobs 4, webhook deliveries 6)',
  );
  const small = loadConfig({ SVC_DB_POOL_SIZE: '5', SVC_WEBHOOK_IN_SERVER: 'false', SVC_KEY_CACHE: 'false' });
  assert.deepEqual(connectionBudget(small, 'server', small.webhooks.inServer), {
    total: 5,
    parts: { 'requests and jobs': 5 },
  });
});

test('a request that waits past SVC_DB_POOL_WAIT for a connection answers 503 with Retry-After; the next one is served', async () => {
  assert.equal((await t.request('GET', '/clients')).status, 200);
  const held = await t.db.pool.connect();
  let busy;
  try {
    const started = performance.now();
    busy = await t.request('GET', '/clients');
    assert.ok(performance.now() - started >= WAIT_MS - 20, 'it waited for the pool first');
  } finally {
    held.release();
  }
  assert.equal(busy.status, 503, busy.text);
  assert.equal(busy.body.error.code, 'DATABASE_UNAVAILABLE');
  assert.match(busy.body.error.message, /no free database connection/);
  assert.equal(busy.headers.get('retry-after'), '1');
  assert.ok(busy.headers.get('x-request-id'));
  const write = await t.request('POST', '/clients', { body: { name: 'After the wait' } });
  assert.equal(write.status, 201, write.text);
  assert.ok(t.logs.some((line) => line.includes('no database connection for a request')));
});

test('a server out of connection slots (too many connections) answers 503, not 500', async () => {
  // A role at its connection limit meets PostgreSQL's 53300 on every connect, as a full server does.
  const role = `svc_busy_${randomBytes(4).toString('hex')}`;
  await t.db.pool.query(`create role ${role} login password 'busy' connection limit 1`);
  await t.db.pool.query(`grant select on platform_settings to ${role}`);
  after(async () => {
    await t.db.pool.query(`drop owned by ${role}`);
    await t.db.pool.query(`drop role if exists ${role}`);
  });
  const url = new URL(t.db.pool.options.connectionString!);
  url.username = role;
  url.password = 'busy';
  const db = openDatabase(url.href, { max: 2, waitMs: 2_000 });
  // Its log goes nowhere: the test reads the answer, and the refusal is logged by design.
  const logStream = new Writable({ write: (_chunk, _enc, done) => done() });
  const app = await buildApp({ config: { ...t.app.config, databaseUrl: url.href, keyCache: false }, db, logStream });
  after(() => app.close().then(() => db.close()));
  // No slot left for the role, and the connection the start-up used is gone.
  await t.db.pool.query(`alter role ${role} connection limit 0`);
  await t.db.pool.query('select pg_terminate_backend(pid, 5000) from pg_stat_activity where usename = $1', [role]);
  while (db.pool.totalCount > 0) await sleep(20);
  const res = await app.inject({
    method: 'GET',
    url: '/api/v3/clients',
    headers: { 'x-service-company': t.tenant.companyId, 'x-api-key': t.tenant.keys.admin },
  });
  assert.equal(res.statusCode, 503, res.body);
  assert.equal(res.json().error.code, 'DATABASE_UNAVAILABLE');
  assert.equal(res.headers['retry-after'], '1');
});

test('a database that cannot be reached, or is starting or stopping, is told apart from a busy one', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  for (const error of [refused, { code: '57P03', message: 'the database system is starting up' }]) {
    const answer = connectionShortage(error)!;
    assert.equal(answer.code, 'DATABASE_UNAVAILABLE');
    assert.equal(answer.status, 503);
    assert.match(answer.message, /cannot be reached/);
    assert.deepEqual(answer.headers, { 'Retry-After': '5' });
  }
  assert.equal(connectionShortage(new Error('timeout exceeded when trying to connect'))!.headers!['Retry-After'], '1');
  assert.equal(connectionShortage({ code: '23505', message: 'duplicate key' }), undefined);
  assert.equal(connectionShortage(undefined), undefined);
});

test('DATABASE_DIRECT_URL marks DATABASE_URL as a transaction pooler: migrations go direct, the budget says so', async () => {
  assert.throws(
    () => loadConfig({ DATABASE_DIRECT_URL: 'postgres://x@h/db' }),
    /DATABASE_DIRECT_URL needs DATABASE_URL/,
  );
  const direct = t.db.pool.options.connectionString!;
  const viaOtherName = new URL(direct);
  viaOtherName.hostname = 'localhost';
  const config = { ...loadConfig({}), databaseUrl: viaOtherName.href, databaseDirectUrl: direct };
  const lines: string[] = [];
  const connection = await connectDatabase(config, (line) => lines.push(line));
  assert.equal(connection.url, viaOtherName.href);
  assert.equal(connection.directUrl, direct);
  assert.equal(connection.pooled, true);
  assert.ok(lines.some((line) => line.startsWith('migrations and change listeners use DATABASE_DIRECT_URL')));
  const plain = await connectDatabase({ ...config, databaseDirectUrl: undefined }, () => {});
  assert.equal(plain.pooled, false);
  assert.equal(
    describeBudget(connectionBudget(loadConfig({}), 'server', true, true)),
    'database connections: at most 40 (requests and jobs 20, webhook deliveries 18, cache listener 1, webhook listener 1; 2 of them direct, the rest through the pooler)',
  );
});

test('a pooled connection keeps no session state: statements unnamed, settings left to the pooler (and checked)', async () => {
  const url = t.db.pool.options.connectionString!;
  const settings = { statementTimeoutMs: 15_000, reportStatementTimeoutMs: 120_000 };
  const sessionState = async (pooled: boolean) => {
    const db = openDatabase(url, { max: 1, pooled, ...settings });
    try {
      await db.db.selectFrom('companies').select('id').where('id', '=', t.tenant.companyId).execute();
      const { rows } = await sql<{ prepared: number; timeout: string }>`select
        (select count(*)::int from pg_prepared_statements) as prepared,
        current_setting('statement_timeout') as timeout`.execute(db.db);
      const warnings: string[] = [];
      const config = { ...loadConfig({}), ...settings };
      await checkPooledSettings(db.db, config, (message) => warnings.push(message));
      return { ...rows[0]!, warnings };
    } finally {
      await db.close();
    }
  };
  const direct = await sessionState(false);
  assert.ok(direct.prepared > 0, 'a direct connection names its statements');
  assert.equal(direct.timeout, '15s');
  assert.deepEqual(direct.warnings, []);
  const pooled = await sessionState(true);
  assert.equal(pooled.prepared, 0);
  assert.notEqual(pooled.timeout, '15s');
  assert.equal(pooled.warnings.length, 1);
  assert.match(
    pooled.warnings[0]!,
    /give the pooler the connect_query "set statement_timeout = 15000; set svc\.report_statement_timeout = 120000"/,
  );
  assert.equal(
    pooledConnectQuery({ ...loadConfig({}), ...settings }),
    'set statement_timeout = 15000; set svc.report_statement_timeout = 120000',
  );
});
