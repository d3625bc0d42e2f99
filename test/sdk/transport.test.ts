import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, createClient, NetworkError, send, type TransportOptions } from '../../sdk/src/index.ts';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** A fetch answering from a script, one entry per attempt; records the requests and the sleeps. */
function scripted(answers: Array<Response | Error>) {
  const requests: Request[] = [];
  const sleeps: number[] = [];
  const opts: TransportOptions = {
    baseUrl: 'https://api.example.test',
    company: '00000000-0000-4000-8000-000000000001',
    apiKey: 'svc_live_test',
    fetch: (async (input: Request) => {
      requests.push(input);
      const next = answers.shift();
      if (!next) throw new Error('no scripted answer left');
      if (next instanceof Error) throw next;
      return next;
    }) as typeof fetch,
    sleep: async (ms) => void sleeps.push(ms),
  };
  return { opts, requests, sleeps };
}

const limited = () =>
  json(429, { error: { code: 'RATE_LIMIT_EXCEEDED', message: 'slow down' } }, { 'Retry-After': '7' });
const ok = () => json(200, { data: { id: 1 } });

test('429 waits the Retry-After seconds, then succeeds', async () => {
  const s = scripted([limited(), ok()]);
  const res = await send(s.opts, 'GET', '/clients');
  assert.equal(res.status, 200);
  assert.deepEqual(s.sleeps, [7000]);
  assert.equal(s.requests.length, 2);
});

test('a Retry-After longer than maxRetryWaitMs is not waited out: the 429 goes back at once', async () => {
  const s = scripted([limited(), ok()]);
  await assert.rejects(
    createClient({ ...s.opts, maxRetryWaitMs: 2_000 }).request('GET', '/clients'),
    (error: unknown) => error instanceof ApiError && error.status === 429 && error.code === 'RATE_LIMIT_EXCEEDED',
  );
  assert.deepEqual(s.sleeps, []);
  assert.equal(s.requests.length, 1);
  const short = scripted([json(429, {}, { 'Retry-After': '1' }), ok()]);
  assert.equal((await send({ ...short.opts, maxRetryWaitMs: 2_000 }, 'GET', '/clients')).status, 200);
  assert.deepEqual(short.sleeps, [1000]);
});

test('a covered POST keeps its Idempotency-Key across 5xx retries, with growing backoff', async () => {
  const s = scripted([json(503, {}), json(502, {}), json(201, { data: { id: 9 } })]);
  const res = await send(s.opts, 'POST', '/clients', { body: { name: 'A' } });
  assert.equal(res.status, 201);
  const keys = s.requests.map((r) => r.headers.get('idempotency-key'));
  assert.ok(keys[0]);
  assert.deepEqual(keys, [keys[0], keys[0], keys[0]]);
  assert.equal(s.sleeps.length, 2);
  assert.ok(s.sleeps[0]! >= 250 && s.sleeps[0]! <= 500, `first backoff ${s.sleeps[0]}`);
  assert.ok(s.sleeps[1]! >= 500 && s.sleeps[1]! <= 1000, `second backoff ${s.sleeps[1]}`);
  for (const r of s.requests) assert.equal(await r.text(), '{"name":"A"}', 'the same body on every attempt');
});

test('network errors are retried; when every attempt fails the caller gets NetworkError', async () => {
  const s = scripted([new TypeError('ECONNRESET'), ok()]);
  assert.equal((await send(s.opts, 'GET', '/clients/1')).status, 200);
  const down = scripted([1, 2, 3, 4].map(() => new TypeError('ECONNREFUSED')));
  const error = await send(down.opts, 'GET', '/clients/1').catch((e) => e);
  assert.ok(error instanceof NetworkError);
  assert.match(error.message, /ECONNREFUSED/);
  assert.equal(down.requests.length, 4, 'the first attempt and maxRetries (3) more');
});

test('retries stop at maxRetries and the last answer becomes an ApiError', async () => {
  const s = scripted([limited(), limited(), limited()]);
  const error = await send({ ...s.opts, maxRetries: 2 }, 'GET', '/clients').catch((e) => e);
  assert.ok(error instanceof ApiError);
  assert.deepEqual(
    [error.status, error.code, error.message],
    [429, 'RATE_LIMIT_EXCEEDED', 'RATE_LIMIT_EXCEEDED: slow down'],
  );
  assert.equal(s.requests.length, 3);
});

test('no retry on other 4xx (400, 404, 409, 412)', async () => {
  for (const status of [400, 404, 409, 412]) {
    const s = scripted([json(status, { error: { code: `C${status}`, message: 'no' } }, { 'x-request-id': 'req-1' })]);
    const error = await send(s.opts, 'PATCH', '/clients/1', { body: {}, ifMatch: '"v"' }).catch((e) => e);
    assert.ok(error instanceof ApiError);
    assert.deepEqual([error.status, error.code, error.requestId], [status, `C${status}`, 'req-1']);
    assert.equal(s.requests.length, 1);
    assert.equal(s.requests[0]!.headers.get('if-match'), '"v"');
  }
});

test('a POST the service does not deduplicate is not repeated after a 5xx or a broken connection', async () => {
  const s = scripted([json(500, { error: { code: 'INTERNAL_ERROR', message: 'x' } })]);
  const error = await send(s.opts, 'POST', '/auth/keys', { body: { name: 'k' } }).catch((e) => e);
  assert.deepEqual([error.status, s.requests.length], [500, 1]);
  assert.equal(s.requests[0]!.headers.get('idempotency-key'), null);
  const broken = scripted([new TypeError('socket hang up')]);
  assert.ok((await send(broken.opts, 'POST', '/webhooks', { body: {} }).catch((e) => e)) instanceof NetworkError);
  assert.equal(broken.requests.length, 1);
  const throttled = scripted([limited(), json(201, {})]);
  await send(throttled.opts, 'POST', '/auth/keys', { body: { name: 'k' } });
  assert.equal(throttled.requests.length, 2, 'a 429 was refused before it ran, so it is always retried');
});

test('the base URL may carry /api/v3; query arrays repeat and nulls are left out; a non-JSON error is kept', async () => {
  const s = scripted([new Response('bad gateway', { status: 404 })]);
  const error = await send({ ...s.opts, baseUrl: 'https://api.example.test/api/v3/' }, 'GET', '/tasks', {
    query: { status: ['open', 'done'], person_id: null, limit: 5 },
  }).catch((e) => e);
  assert.equal(s.requests[0]!.url, 'https://api.example.test/api/v3/tasks?status=open&status=done&limit=5');
  assert.deepEqual([error.status, error.code, error.body], [404, 'HTTP_404', 'bad gateway']);
});

test('a path with its own query keeps it and gets init.query appended', async () => {
  const s = scripted([ok()]);
  await send(s.opts, 'GET', '/clients?status=active', { query: { limit: 2 } });
  assert.equal(s.requests[0]!.url, 'https://api.example.test/api/v3/clients?status=active&limit=2');
});

/** A real HTTP server on a loopback port: records the X-API-Key of every request and answers with `handler`. */
async function server(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: Array<{ path: string; method: string; key: string | undefined; body: string }> = [];
  const srv = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', method: req.method ?? '', key: req.headers['x-api-key'] as string, body });
      handler(req, res);
    });
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  after(() => srv.close());
  return { origin: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, seen };
}

const answer = (
  res: ServerResponse,
  status: number,
  headers: Record<string, string> = {},
  body = '{"data":{"id":1}}',
) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);

test('a redirect to another origin is not followed: the key never reaches it; the caller gets the redirect', async () => {
  const elsewhere = await server((_req, res) => answer(res, 200));
  const api = await server((_req, res) => answer(res, 302, { Location: `${elsewhere.origin}/api/v3/clients` }, ''));
  const opts = { baseUrl: api.origin, company: '00000000-0000-4000-8000-000000000001', apiKey: 'svc_live_secret' };
  const error = await send(opts, 'GET', '/clients').catch((e) => e);
  assert.ok(error instanceof ApiError, String(error));
  assert.deepEqual([error.status, error.code], [302, 'REDIRECT_NOT_FOLLOWED']);
  assert.equal(error.details?.location, `${elsewhere.origin}/api/v3/clients`);
  const typed = await createClient(opts).api.GET('/clients');
  assert.equal(typed.response.status, 302, 'the typed client answers the redirect as it came');
  assert.deepEqual(elsewhere.seen, [], 'the other origin was never contacted');
  assert.deepEqual(
    api.seen.map((r) => r.key),
    ['svc_live_secret', 'svc_live_secret'],
  );
});

test('a redirect within the origin is followed with the key; 307 keeps the method and body', async () => {
  const api = await server((req, res) => {
    if (req.url === '/api/v3/old') answer(res, 307, { Location: '/api/v3/clients' }, '');
    else answer(res, 201);
  });
  const opts = { baseUrl: api.origin, company: '00000000-0000-4000-8000-000000000001', apiKey: 'svc_live_secret' };
  const res = await send(opts, 'POST', '/old', { body: { name: 'A' } });
  assert.equal(res.status, 201);
  assert.deepEqual(api.seen, [
    { path: '/api/v3/old', method: 'POST', key: 'svc_live_secret', body: '{"name":"A"}' },
    { path: '/api/v3/clients', method: 'POST', key: 'svc_live_secret', body: '{"name":"A"}' },
  ]);
});
