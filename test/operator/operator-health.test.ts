// GET /operator/health (decision 0059): why the service keeps up or not, behind the operator token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp } from '../helpers.ts';
import Fastify from 'fastify';
import { listMigrations } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/database.ts';
import { operatorHealthRoutes } from '../../src/modules/operator/operator.health.ts';

const TOKEN = 'operator-secret-token-of-32-bytes-at-least';
const t = await createTestApp({ operatorToken: TOKEN });
const disabled = await createTestApp({ operatorToken: undefined });
const health = (app = t, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) =>
  app.request('GET', '/operator/health', { key: null, company: null, headers });

test('the operator health view names the schema version, the delivery and the job backlog', async () => {
  const res = await health();
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  const latest = (await listMigrations()).at(-1)!;
  assert.equal(res.body.status, 'ok');
  assert.equal(res.body.database, 'up');
  assert.equal(res.body.migration.name, latest);
  assert.equal(res.body.migration.number, Number.parseInt(latest, 10));
  assert.match(res.body.migration.applied_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.deepEqual(res.body.webhooks, { due: 0, in_flight: 0, scheduled: 0, lag_seconds: 0 });
  assert.deepEqual(res.body.jobs, { queued: 0, running: 0, oldest_queued_seconds: 0 });
});

test('a late delivery and an old queued job show as lag and age', async () => {
  const hook = await t.request('POST', '/webhooks', {
    body: { webhook: 'client.created', url: 'https://93.184.216.34/hooks' },
  });
  assert.equal(hook.status, 201, hook.text);
  for (const name of ['One Ltd', 'Two Ltd'])
    assert.equal((await t.request('POST', '/clients', { body: { name } })).status, 201);
  // Nothing delivers in a test app: one delivery made 60 s late, the other a retry due in an hour.
  await sql`update webhook_deliveries set next_attempt_at = now() - interval '60 seconds'
    where id = (select min(id) from webhook_deliveries)`.execute(t.db.db);
  await sql`update webhook_deliveries set next_attempt_at = now() + interval '1 hour', attempt = 2
    where id = (select max(id) from webhook_deliveries)`.execute(t.db.db);
  await sql`insert into jobs (company_id, type, params, created_at)
    values (${t.tenant.companyId}, 'task_bulk_action', '{}', now() - interval '5 minutes')`.execute(t.db.db);
  const res = await health();
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.webhooks.due, 1);
  assert.equal(res.body.webhooks.scheduled, 1);
  assert.ok(res.body.webhooks.lag_seconds >= 60 && res.body.webhooks.lag_seconds < 600, res.text);
  assert.equal(res.body.jobs.queued, 1);
  assert.ok(res.body.jobs.oldest_queued_seconds >= 300 && res.body.jobs.oldest_queued_seconds < 900, res.text);
});

test('the operator health view needs the operator token (401), and without one configured does not exist (404)', async () => {
  for (const headers of [{}, { authorization: 'Bearer wrong-token' }] as Array<Record<string, string>>) {
    const res = await health(t, headers);
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'UNAUTHORIZED');
  }
  const off = await health(disabled);
  assert.equal(off.status, 404);
  assert.equal(off.body.error.code, 'NOT_FOUND');
});

test('a database that does not answer makes the view 503 degraded, saying so, not a 500', async () => {
  // Nothing listens on port 1: every read fails at once (no pool wait).
  const unreachable = openDatabase('postgres://svc:x@127.0.0.1:1/none', { max: 1 });
  const app = Fastify({ logger: false });
  await app.register(operatorHealthRoutes, { db: unreachable.db });
  try {
    const res = await app.inject({ method: 'GET', url: '/health' });
    assert.equal(res.statusCode, 503);
    assert.deepEqual(res.json(), {
      status: 'degraded',
      database: 'down',
      migration: null,
      webhooks: null,
      jobs: null,
    });
  } finally {
    await app.close();
    await unreachable.close();
  }
});

test('GET /api/v3/health stays as it was: status and generic components only', async () => {
  const res = await t.request('GET', '/health', { key: null, company: null });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { status: 'ok', components: { database: 'up', cache: 'up' } });
});
