// GET /metrics (decision 0059): real HTTP against the app, the body read by a real Prometheus text parser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp } from '../helpers.ts';
import { loadConfig } from '../../src/config.ts';
import { family, sample, scrape, type Scrape } from '../support/prometheus.ts';

const TOKEN = 'metrics-secret-token-of-32-bytes-at-least';
const off = await createTestApp();
const t = await createTestApp({ metricsToken: TOKEN });
const url = `${t.baseUrl}/metrics`;
// A scrape reuses the database readings for a second (READINGS_REUSE_MS): wait past it to see a change.
const pastReuse = () => new Promise((resolve) => setTimeout(resolve, 1100));

const get = (base: string, path: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { headers }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

test('without SVC_METRICS_TOKEN, /metrics answers 404 as an unknown path does, whatever is sent', async () => {
  const unknown = await get(off.baseUrl, '/no-such-path');
  for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Array<Record<string, string>>) {
    const res = await get(off.baseUrl, '/metrics', headers);
    assert.equal(res.status, 404);
    assert.deepEqual(res.body, { error: { code: 'NOT_FOUND', message: 'No route GET /metrics' } });
    assert.equal(res.body.error.code, unknown.body.error.code);
  }
});

test('/metrics refuses a missing, wrong or non-bearer token with 401 and the usual error body', async () => {
  for (const headers of [
    {},
    { authorization: `Bearer ${TOKEN}x` },
    { authorization: 'Bearer ' },
    { authorization: `Basic ${TOKEN}` },
    { authorization: TOKEN },
  ] as Array<Record<string, string>>) {
    const res = await get(t.baseUrl, '/metrics', headers);
    assert.equal(res.status, 401, JSON.stringify(headers));
    assert.equal(res.body.error.code, 'UNAUTHORIZED');
    assert.match(res.body.error.message, /metrics token/);
  }
});

test('/metrics is not part of the v3 OpenAPI document', async () => {
  const res = await t.request('GET', '/openapi.json', { key: null, company: null });
  assert.equal(res.status, 200);
  assert.deepEqual(
    Object.keys(res.body.paths).filter((path) => path.includes('metrics')),
    [],
  );
});

test('the process figures of prom-client are served', async () => {
  const families = await scrape(url, TOKEN);
  for (const name of ['process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'process_cpu_seconds_total'])
    assert.ok(sample(families, name) > 0, name);
  assert.equal(family(families, 'svc_http_requests_total').type, 'COUNTER');
  assert.equal(family(families, 'svc_http_request_duration_seconds').type, 'HISTOGRAM');
});

const clients = { method: 'GET', route: '/api/v3/clients', status: '200' };
const missing = { method: 'GET', route: '/api/v3/clients/:client_id', status: '404' };
const unmatched = { method: 'GET', route: 'unmatched', status: '404' };

test('request counters and latency move with requests, by route pattern and status, never the raw URL', async () => {
  const before = await scrape(url, TOKEN);
  for (let i = 0; i < 3; i++) assert.equal((await t.request('GET', '/clients')).status, 200);
  assert.equal((await t.request('GET', '/clients/987654')).status, 404);
  assert.equal((await get(t.baseUrl, '/no-such-path/987654')).status, 404);
  assert.equal((await get(t.baseUrl, '/metrics')).status, 401);
  assert.equal((await t.request('GET', '/health', { key: null, company: null })).status, 200);
  const after = await scrape(url, TOKEN);
  const moved = (scraped: Scrape, labels: Record<string, string>) => sample(scraped, 'svc_http_requests_total', labels);
  assert.equal(moved(after, clients) - moved(before, clients), 3);
  assert.equal(moved(after, missing) - moved(before, missing), 1);
  assert.equal(moved(after, unmatched) - moved(before, unmatched), 1);
  assert.ok(moved(after, { route: '/metrics', status: '401' }) >= 1);
  assert.ok(moved(after, { route: '/api/v3/health', status: '200' }) >= 1, 'routes added before the hook count too');
  const latency = (scraped: Scrape, part: string, labels: Record<string, string> = clients) =>
    sample(scraped, `svc_http_request_duration_seconds_${part}`, labels);
  assert.equal(latency(after, 'count') - latency(before, 'count'), 3, 'the histogram counts the same requests');
  assert.ok(latency(after, 'sum') > latency(before, 'sum'));
  assert.equal(latency(after, 'bucket', { ...clients, le: '+Inf' }), latency(after, 'count'));
  const labels = after.series.flatMap((f) => f.metrics.flatMap((m) => Object.values(m.labels ?? {})));
  assert.equal(labels.filter((value) => value.includes('987654')).length, 0, 'no raw URL in a label');
});

test('key-cache lookups and idempotency outcomes are counted', async () => {
  const before = await scrape(url, TOKEN);
  for (let i = 0; i < 3; i++) await t.request('GET', '/clients');
  const headers = { 'idempotency-key': `metrics-${Date.now()}` };
  const first = await t.request('POST', '/clients', { headers, body: { name: 'Counted Ltd' } });
  assert.equal(first.status, 201, first.text);
  const again = await t.request('POST', '/clients', { headers, body: { name: 'Counted Ltd' } });
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  const other = await t.request('POST', '/clients', { headers, body: { name: 'Another Ltd' } });
  assert.equal(other.status, 409);
  const after = await scrape(url, TOKEN);
  const lookups = (families: Scrape) =>
    sample(families, 'svc_key_cache_lookups_total', { cache: 'keys', result: 'hit' }) +
    sample(families, 'svc_key_cache_lookups_total', { cache: 'keys', result: 'miss' });
  assert.ok(lookups(after) - lookups(before) >= 6, 'every keyed request looked in the cache');
  const outcome = (families: Scrape, name: string) =>
    sample(families, 'svc_idempotency_requests_total', { outcome: name });
  for (const name of ['first', 'replayed', 'refused'])
    assert.equal(outcome(after, name) - outcome(before, name), 1, name);
});

test('pool, webhook delivery and job gauges read sane values', async () => {
  const hook = await t.request('POST', '/webhooks', {
    body: { webhook: 'client.created', url: 'https://93.184.216.34/hooks' },
  });
  assert.equal(hook.status, 201, hook.text);
  assert.equal((await t.request('POST', '/clients', { body: { name: 'Delivered Ltd' } })).status, 201);
  // Nothing delivers in a test app: the delivery waits, made 90 s late; a job queued two minutes ago.
  await sql`update webhook_deliveries set next_attempt_at = now() - interval '90 seconds'`.execute(t.db.db);
  await t.db.db
    .insertInto('jobs')
    .values({
      company_id: t.tenant.companyId,
      type: 'task_bulk_action',
      params: '{}',
      ...{ total_count: null, failed_count: null, failed_client_ids: null, skipped_count: null },
      ...{ skipped_client_ids: null, result: null, error: null, started_at: null, finished_at: null },
      api_key_id: t.tenant.keyIds.admin,
      created_at: sql<string>`now() - interval '120 seconds'`,
    })
    .execute();
  await pastReuse();
  const families = await scrape(url, TOKEN);
  assert.equal(sample(families, 'svc_webhook_deliveries_backlog', { phase: 'due' }), 1);
  assert.equal(sample(families, 'svc_webhook_deliveries_backlog', { phase: 'in_flight' }), 0);
  const lag = sample(families, 'svc_webhook_delivery_lag_seconds');
  assert.ok(lag >= 90 && lag < 600, `lag ${lag}`);
  assert.equal(sample(families, 'svc_jobs_backlog', { status: 'queued' }), 1);
  const age = sample(families, 'svc_jobs_oldest_queued_seconds');
  assert.ok(age >= 120 && age < 600, `age ${age}`);
  assert.equal(sample(families, 'svc_db_pool_max'), 10, 'the test pool opens at most 10');
  const open =
    sample(families, 'svc_db_pool_connections', { state: 'idle' }) +
    sample(families, 'svc_db_pool_connections', { state: 'in_use' });
  assert.ok(open >= 1 && open <= 10, `open ${open}`);
  assert.equal(sample(families, 'svc_db_pool_waiting'), 0);
});

test('SVC_METRICS_TOKEN shorter than 32 bytes, or a bad SVC_METRICS_PORT, stops the start', () => {
  assert.throws(
    () => loadConfig({ SVC_METRICS_TOKEN: 'short' }),
    /^Error: SVC_METRICS_TOKEN must be at least 32 bytes long, got 5 .*unset it to turn \/metrics off/,
  );
  assert.throws(() => loadConfig({ SVC_METRICS_PORT: '70000' }), /SVC_METRICS_PORT must be a TCP port/);
  assert.throws(() => loadConfig({ SVC_METRICS_PORT: 'x' }), /SVC_METRICS_PORT must be a non-negative integer/);
  const config = loadConfig({ SVC_METRICS_TOKEN: TOKEN, SVC_METRICS_PORT: '9464' });
  assert.equal(config.metricsToken, TOKEN);
  assert.equal(config.metricsPort, 9464);
  assert.equal(loadConfig({}).metricsPort, undefined);
});
