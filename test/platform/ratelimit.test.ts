import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { createTestApp, type Response } from '../helpers.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';

const t = await createTestApp({}, { SVC_RATE_LIMIT_READ: '3', SVC_RATE_LIMIT_WRITE: '2' });
const code = (res: Response) => res.body?.error?.code;

function assertHeaders(res: Response, tier: 'read' | 'write', limit: number, remaining: number) {
  assert.equal(res.headers.get('x-ratelimit-tier'), tier);
  assert.equal(res.headers.get('x-ratelimit-limit'), String(limit));
  assert.equal(res.headers.get('x-ratelimit-remaining'), String(remaining));
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  const now = Date.now() / 1000;
  assert.ok(
    Number.isInteger(reset) && reset >= Math.floor(now) && reset <= now + 61,
    `reset ${reset} is epoch seconds within the window`,
  );
}

test('defaults come from the spec and limits are configurable; bad values refuse to start', () => {
  assert.deepEqual(loadConfig({}).rateLimits, { read: 120, write: 30, address: 300 });
  assert.deepEqual(
    loadConfig({ SVC_RATE_LIMIT_READ: '3', SVC_RATE_LIMIT_WRITE: '0', SVC_RATE_LIMIT_ADDRESS: '9' }).rateLimits,
    { read: 3, write: 0, address: 9 },
  );
  assert.throws(() => loadConfig({ SVC_RATE_LIMIT_READ: '-1' }), /non-negative integer/);
});

test('read tier: headers count down, then 429 RATE_LIMIT_EXCEEDED with Retry-After', async () => {
  const tenant = await t.newTenant();
  for (let i = 0; i < 3; i++) {
    const res = await t.request('GET', '/clients', { tenant, key: 'read' });
    assert.equal(res.status, 200);
    assertHeaders(res, 'read', 3, 2 - i);
  }
  const limited = await t.request('GET', '/clients', { tenant, key: 'read' });
  assert.equal(limited.status, 429);
  assert.equal(code(limited), 'RATE_LIMIT_EXCEEDED');
  const retryAfter = Number(limited.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
  assert.equal(limited.body.error.details.retry_after, retryAfter);
  assertHeaders(limited, 'read', 3, 0);
  // The write tier has its own counter.
  const write = await t.request('POST', '/clients', { tenant, key: 'read', body: { name: 'x' } });
  assert.equal(code(write), 'FORBIDDEN');
  assertHeaders(write, 'write', 2, 1);
});

test('write tier: POST, PATCH and DELETE share the write counter', async () => {
  const tenant = await t.newTenant();
  const created = await t.request('POST', '/clients', { tenant, key: 'write', body: { name: 'A' } });
  assert.equal(created.status, 201);
  assertHeaders(created, 'write', 2, 1);
  const patched = await t.request('PATCH', `/clients/${created.body.data.id}`, {
    tenant,
    key: 'write',
    body: { name: 'B' },
  });
  assertHeaders(patched, 'write', 2, 0);
  const deleted = await t.request('DELETE', `/clients/${created.body.data.id}`, { tenant, key: 'write' });
  assert.equal(deleted.status, 429);
  assert.equal(code(deleted), 'RATE_LIMIT_EXCEEDED');
  const stored = await t.db.db
    .selectFrom('clients')
    .select(['name', 'deleted_at'])
    .where('company_id', '=', tenant.companyId)
    .executeTakeFirstOrThrow();
  assert.deepEqual(stored, { name: 'B', deleted_at: null });
  // Reads are still open.
  assertHeaders(await t.request('GET', '/clients', { tenant, key: 'write' }), 'read', 3, 2);
});

test('two API keys have separate counters', async () => {
  const tenant = await t.newTenant();
  for (let i = 0; i < 3; i++) await t.request('GET', '/clients', { tenant, key: 'read' });
  assert.equal((await t.request('GET', '/clients', { tenant, key: 'read' })).status, 429);
  const other = await t.request('GET', '/clients', { tenant, key: 'admin' });
  assert.equal(other.status, 200);
  assertHeaders(other, 'read', 3, 2);
});

test('headers are on authenticated 4xx answers, not on answers before authentication', async () => {
  const tenant = await t.newTenant();
  const missing = await t.request('GET', '/clients/999999', { tenant });
  assert.equal(missing.status, 404);
  assertHeaders(missing, 'read', 3, 2);
  const invalid = await t.request('GET', '/clients?limit=0', { tenant });
  assert.equal(invalid.status, 400);
  assertHeaders(invalid, 'read', 3, 1);
  const badBody = await t.request('POST', '/clients', { tenant, body: { name: '' } });
  assert.equal(code(badBody), 'VALIDATION_ERROR');
  assertHeaders(badBody, 'write', 2, 1);
  const unauthenticated = await t.request('GET', '/clients', { tenant, key: 'svc_live_nope' });
  assert.equal(unauthenticated.status, 401);
  assert.equal(unauthenticated.headers.get('x-ratelimit-limit'), null);
});

test('0 disables a limit: no counting, no headers', async () => {
  const unlimited = await createTestApp({}, { SVC_RATE_LIMIT_READ: '0', SVC_RATE_LIMIT_WRITE: '1' });
  for (let i = 0; i < 8; i++) {
    const res = await unlimited.request('GET', '/clients', { key: 'read' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-ratelimit-limit'), null);
  }
  assert.equal((await unlimited.request('POST', '/clients', { body: { name: 'a' } })).status, 201);
  assert.equal((await unlimited.request('POST', '/clients', { body: { name: 'b' } })).status, 429);
});

test('the per-address ceiling applies across keys, companies and unauthenticated requests', async () => {
  const edge = await createTestApp({}, { SVC_RATE_LIMIT_ADDRESS: '4' });
  const other = await edge.newTenant();
  assert.equal((await edge.request('GET', '/clients', { key: 'read' })).status, 200);
  assert.equal((await edge.request('GET', '/clients', { key: 'admin' })).status, 200);
  assert.equal((await edge.request('GET', '/clients', { tenant: other, key: 'write' })).status, 200);
  assert.equal((await edge.request('GET', '/clients', { key: null, company: null })).status, 400);
  const limited = await edge.request('GET', '/clients', { tenant: other, key: 'admin' });
  assert.equal(limited.status, 429);
  assert.equal(code(limited), 'RATE_LIMIT_EXCEEDED');
  assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  assert.equal((await edge.request('GET', '/clients', { key: null, company: null })).status, 429);
});

test('with Redis, two app instances share one counter per key', async () => {
  const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  await redis.ping();
  const env = { SVC_RATE_LIMIT_READ: '3', SVC_RATE_LIMIT_WRITE: '2', SVC_RATE_LIMIT_ADDRESS: '0' };
  const first = await createTestApp({}, env, { redis });
  // The second instance: another process in production, here another app over the same database and Redis.
  const second = await buildApp({
    config: loadConfig(env),
    db: first.db,
    redis,
    logStream: new Writable({ write: (_c, _e, cb) => cb() }),
  });
  after(async () => {
    await second.close();
    const keys = await redis.keys(`rl:*:${first.tenant.companyId}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });
  const secondUrl = await second.listen({ port: 0, host: '127.0.0.1' });
  const headers = { 'x-service-company': first.tenant.companyId, 'x-api-key': first.tenant.keys.read };
  const viaSecond = () => fetch(`${secondUrl}/api/v3/clients`, { headers });

  assertHeaders(await first.request('GET', '/clients', { key: 'read' }), 'read', 3, 2);
  const shared = await viaSecond();
  assert.equal(shared.status, 200);
  assert.equal(shared.headers.get('x-ratelimit-remaining'), '1');
  assertHeaders(await first.request('GET', '/clients', { key: 'read' }), 'read', 3, 0);
  const limited = await viaSecond();
  assert.equal(limited.status, 429);
  assert.equal(((await limited.json()) as { error: { code: string } }).error.code, 'RATE_LIMIT_EXCEEDED');
  const stored = await redis.keys(`rl:read:${first.tenant.companyId}:*`);
  assert.equal(stored.length, 1, 'the count lives in Redis');
});
