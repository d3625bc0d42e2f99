// The worker's own /metrics (SVC_METRICS_PORT, decision 0059): a listener serving that path alone, same token rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cloneDatabase } from '../clone.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { loadModules } from '../../src/modules/index.ts';
import { listenForMetrics } from '../../src/platform/metrics-routes.ts';
import { family, sample, scrape } from '../support/prometheus.ts';

const TOKEN = 'metrics-secret-token-of-32-bytes-at-least';
const database = openDatabase(await cloneDatabase(), { max: 4 });
const sources = { pool: database.pool, db: database.db, modules: loadModules().modules };
const config = loadConfig({ SVC_METRICS_TOKEN: TOKEN, SVC_METRICS_PORT: '0' });
const listener = (await listenForMetrics(config, sources))!;
test.after(async () => {
  await listener.close();
  await database.close();
});

test('without SVC_METRICS_PORT or without the token the worker listens for nothing', async () => {
  assert.equal(await listenForMetrics(loadConfig({ SVC_METRICS_TOKEN: TOKEN }), sources), undefined);
  assert.equal(await listenForMetrics(loadConfig({ SVC_METRICS_PORT: '0' }), sources), undefined);
});

test("the worker's listener serves its pool, the backlog and process figures, and no request counters", async () => {
  assert.match(listener.url, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
  const scraped = await scrape(listener.url, TOKEN);
  assert.equal(sample(scraped, 'svc_db_pool_max'), 4);
  assert.equal(sample(scraped, 'svc_jobs_backlog', { status: 'queued' }), 0);
  assert.equal(sample(scraped, 'svc_webhook_deliveries_backlog', { phase: 'due' }), 0);
  assert.equal(family(scraped, 'svc_webhook_delivery_lag_seconds').type, 'GAUGE');
  assert.ok(sample(scraped, 'process_resident_memory_bytes') > 0);
  assert.equal(
    scraped.families.find((f) => f.name === 'svc_http_requests_total'),
    undefined,
    'the worker answers no API',
  );
});

test('a database that does not answer leaves the backlog gauges empty or NaN, never 0; the scrape still answers', async () => {
  // Nothing listens on port 1: every read fails at once.
  const unreachable = openDatabase('postgres://svc:x@127.0.0.1:1/none', { max: 1 });
  const down = (await listenForMetrics(config, { ...sources, pool: unreachable.pool, db: unreachable.db }))!;
  try {
    const scraped = await scrape(down.url, TOKEN);
    assert.deepEqual(family(scraped, 'svc_jobs_backlog').metrics, []);
    assert.ok(Number.isNaN(sample(scraped, 'svc_webhook_delivery_lag_seconds')), 'unknown, not 0 ("no lag")');
    assert.ok(Number.isNaN(sample(scraped, 'svc_jobs_oldest_queued_seconds')));
    assert.equal(sample(scraped, 'svc_db_pool_max'), 1);
  } finally {
    await down.close();
    await unreachable.close();
  }
});

test("the worker's listener refuses without the token (401) and knows no other path (404)", async () => {
  for (const headers of [{}, { authorization: 'Bearer wrong' }] as Array<Record<string, string>>) {
    const res = await fetch(listener.url, { headers });
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'UNAUTHORIZED');
  }
  const other = await fetch(listener.url.replace(/\/metrics$/, '/api/v3/clients'), {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(other.status, 404);
  assert.deepEqual(await other.json(), { error: { code: 'NOT_FOUND', message: 'No route GET /api/v3/clients' } });
});
