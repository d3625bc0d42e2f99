import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';
import { buildApp } from '../../src/app.ts';
import { openDatabase } from '../../src/db/database.ts';
import { loadConfig } from '../../src/config.ts';
import { healthRoutes, PROBE_REUSE_MS } from '../../src/platform/health.ts';
import { cloneDatabase, createTestApp } from '../helpers.ts';

const t = await createTestApp();
const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-health-'));
after(() => fs.rm(tmp, { recursive: true, force: true }));

/** A loopback port nothing listens on: bound by the kernel's choice, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** A real Redis on a unix socket (no TCP port to collide on), without persistence. */
async function startRedis() {
  const socket = path.join(tmp, `redis-${Date.now()}.sock`);
  const child = spawn('redis-server', ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  for (
    let i = 0;
    i < 100 &&
    !(await fs.access(socket).then(
      () => true,
      () => false,
    ));
    i++
  )
    await sleep(50);
  return {
    socket,
    stop: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The real app on its own database clone, with a Redis client. */
async function appWithRedis(redis: Redis) {
  const url = await cloneDatabase();
  const db = openDatabase(url, { max: 2 });
  const config = {
    ...loadConfig({
      SVC_RATE_LIMIT_READ: '0',
      SVC_RATE_LIMIT_WRITE: '0',
      SVC_RATE_LIMIT_ADDRESS: '0',
      LOG_LEVEL: 'silent',
    }),
    databaseUrl: url,
  };
  const app = await buildApp({ config, db, redis });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  after(async () => {
    await app.close();
    await db.close();
    redis.disconnect();
  });
  return (p: string) => fetch(`${base}/api/v3${p}`);
}

const redisClient = (options: RedisOptions) => {
  const client = new Redis({
    ...options,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    retryStrategy: () => 200,
  });
  client.on('error', () => {});
  return client;
};

test('GET /health answers 200 ok with every component up, without any credentials', async () => {
  const res = await t.request('GET', '/health', { key: null, company: null });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { status: 'ok', components: { database: 'up', cache: 'up' } });
  assert.equal(res.headers.get('cache-control'), 'no-store');
  assert.equal(res.headers.get('x-ratelimit-limit'), null, 'not counted against any key');
  const withBadKey = await t.request('GET', '/health', { key: 'svc_live_nonsense', company: 'not-a-uuid' });
  assert.equal(withBadKey.status, 200, 'credentials are not looked at');
});

test('with a configured Redis the cache is checked for real: up while it runs, 503 degraded once it stops', async () => {
  const redis = await startRedis();
  const client = redisClient({ path: redis.socket });
  const get = await appWithRedis(client);
  await client.ping();
  const up = await get('/health');
  assert.equal(up.status, 200);
  assert.deepEqual(await up.json(), { status: 'ok', components: { database: 'up', cache: 'up' } });

  await redis.stop();
  await sleep(PROBE_REUSE_MS + 100); // one probe answers for a second
  const down = await get('/health');
  assert.equal(down.status, 503);
  assert.deepEqual(await down.json(), { status: 'degraded', components: { database: 'up', cache: 'down' } });
});

test('a Redis URL pointing at a closed port makes the cache down: 503 degraded', async () => {
  const get = await appWithRedis(redisClient({ host: '127.0.0.1', port: await closedPort() }));
  const res = await get('/health');
  assert.equal(res.status, 503);
  assert.deepEqual(await res.json(), { status: 'degraded', components: { database: 'up', cache: 'down' } });
  // Other routes still answer: a down cache degrades, it does not take the API away.
  assert.equal((await get('/openapi.json')).status, 200);
});

test('a database pool pointing nowhere makes the database down: 503 degraded', async () => {
  const nowhere = openDatabase(`postgres://postgres:x@127.0.0.1:${await closedPort()}/none`, { max: 1 });
  const app = Fastify();
  await app.register(healthRoutes, { db: nowhere.db });
  after(async () => {
    await app.close();
    await nowhere.close();
  });
  const res = await app.inject({ method: 'GET', url: '/health' });
  assert.equal(res.statusCode, 503);
  assert.deepEqual(res.json(), { status: 'degraded', components: { database: 'down', cache: 'up' } });
});

test('a component that hangs is reported down after the probe timeout instead of hanging the probe', async () => {
  const hanging = { ping: () => new Promise(() => {}) } as unknown as Redis;
  const app = Fastify();
  await app.register(healthRoutes, { db: t.db.db, redis: hanging });
  after(() => app.close());
  const started = Date.now();
  const res = await app.inject({ method: 'GET', url: '/health' });
  assert.equal(res.statusCode, 503);
  assert.deepEqual(res.json(), { status: 'degraded', components: { database: 'up', cache: 'down' } });
  assert.ok(Date.now() - started < 4000, 'bounded by the probe timeout');
});

// Issue 24 item 6: unauthenticated probes cannot make unbounded database work.
test('the component probe is shared: a burst of /health requests makes one database round trip a second', async () => {
  await sleep(1100); // past any probe an earlier test left
  let roundTrips = 0;
  const count = () => roundTrips++;
  t.db.pool.on('acquire', count);
  try {
    const burst = await Promise.all(
      Array.from({ length: 25 }, () => t.request('GET', '/health', { key: null, company: null })),
    );
    for (const res of burst) assert.deepEqual([res.status, res.body.status], [200, 'ok']);
    const again = await t.request('GET', '/health', { key: null, company: null });
    assert.equal(again.status, 200);
    assert.equal(roundTrips, 1, '26 requests, one probe');
    await sleep(1100);
    assert.equal((await t.request('GET', '/health', { key: null, company: null })).status, 200);
    assert.equal(roundTrips, 2, 'a second later the database is asked again');
  } finally {
    t.db.pool.off('acquire', count);
  }
});

test('GET /health counts against the per-address limit: past it 429 with Retry-After, before any probe', async () => {
  const limited = await createTestApp({}, { SVC_RATE_LIMIT_ADDRESS: '3' });
  for (let i = 0; i < 3; i++)
    assert.equal((await limited.request('GET', '/health', { key: null, company: null })).status, 200);
  const refused = await limited.request('GET', '/health', { key: null, company: null });
  assert.equal(refused.status, 429);
  assert.equal(refused.body.error.code, 'RATE_LIMIT_EXCEEDED');
  assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
  const document = (await limited.request('GET', '/api/v3/openapi.json', { key: null, company: null })).body;
  assert.ok(document.paths['/health'].get.responses['429'], 'the document lists the 429');
});
