import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';
import { ApiError, createClient, OPERATIONS, type ClientOptions } from '../../sdk/src/index.ts';

const t = await createTestApp();

/** Real fetch, with every request the SDK sent recorded (a clone, so its headers and URL can be read). */
function recording(wrap?: (request: Request, n: number) => Promise<Response>) {
  const sent: Request[] = [];
  const fetcher = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push(request.clone());
    return wrap ? wrap(request, sent.length) : fetch(request);
  };
  return { sent, fetch: fetcher as typeof fetch };
}

function sdkFor(extra: Partial<ClientOptions> = {}, key = t.tenant.keys.admin) {
  return createClient({
    baseUrl: t.baseUrl,
    company: t.tenant.companyId,
    apiKey: key,
    sleep: async () => {},
    ...extra,
  });
}

async function makeClients(prefix: string, n: number, status = 'active') {
  for (let i = 0; i < n; i++) {
    const res = await t.request('POST', '/clients', { body: { name: `${prefix} ${i}`, status } });
    assert.equal(res.status, 201, res.text);
  }
}

test('clients.list iterates every page through meta.next_cursor, sending the filters once', async () => {
  await makeClients('Paged', 5);
  await makeClients('Dormant', 2, 'inactive');
  const rec = recording();
  const sdk = sdkFor({ fetch: rec.fetch });
  const names: string[] = [];
  for await (const c of sdk.clients.list({ status: 'active', q: 'Paged', limit: 2 })) names.push(c.name);
  assert.deepEqual(names.sort(), ['Paged 0', 'Paged 1', 'Paged 2', 'Paged 3', 'Paged 4']);
  assert.equal(rec.sent.length, 3, 'three pages of two');
  const first = new URL(rec.sent[0]!.url);
  assert.equal(first.pathname, '/api/v3/clients');
  assert.equal(first.searchParams.get('status'), 'active');
  const second = new URL(rec.sent[1]!.url);
  assert.ok(second.searchParams.get('cursor'), 'the next page follows the cursor');
  assert.equal(second.searchParams.get('status'), null, "the cursor carries the first page's filters");
  for (const request of rec.sent) {
    assert.equal(request.headers.get('x-service-company'), t.tenant.companyId);
    assert.equal(request.headers.get('x-api-key'), t.tenant.keys.admin);
    assert.match(request.headers.get('user-agent')!, /^@service-api\/sdk\//);
  }
});

test('an offset-only list is iterated by offset', async () => {
  const rec = recording();
  const sdk = sdkFor({ fetch: rec.fetch });
  for (const name of ['Lead', 'Reviewer', 'Helper']) await sdk.roles.create({ name });
  rec.sent.length = 0;
  const stored = await t.request('GET', '/roles?limit=200');
  const ids: number[] = [];
  for await (const role of sdk.roles.list({ limit: 1 })) ids.push(role.id);
  assert.deepEqual(ids.sort(), stored.body.data.map((r: { id: number }) => r.id).sort());
  assert.equal(new URL(rec.sent[1]!.url).searchParams.get('offset'), '1');
});

test('a create whose answer was lost is retried with the same Idempotency-Key and stored once', async () => {
  // The first attempt reaches the server and is committed; the client then sees the connection drop.
  const rec = recording(async (request, n) => {
    const response = await fetch(request);
    if (n === 1) throw new TypeError('socket hang up');
    return response;
  });
  const sdk = sdkFor({ fetch: rec.fetch });
  const created = await sdk.clients.create({ name: 'Exactly once' });
  assert.equal(rec.sent.length, 2);
  const keys = rec.sent.map((r) => r.headers.get('idempotency-key'));
  assert.ok(keys[0], 'a covered POST carries a key');
  assert.equal(keys[1], keys[0], 'the retry reuses it');
  const rows = await t.db.db
    .selectFrom('clients')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('name', '=', 'Exactly once')
    .execute();
  assert.deepEqual(
    rows.map((r) => r.id),
    [created!.id],
  );
});

test('the server replays the stored answer for a reused key (Idempotency-Replayed)', async () => {
  const sdk = sdkFor();
  const first = await sdk.request('POST', '/clients', { body: { name: 'Replayed' }, idempotencyKey: 'sdk-replay-1' });
  const second = await sdk.request('POST', '/clients', { body: { name: 'Replayed' }, idempotencyKey: 'sdk-replay-1' });
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.deepEqual(await second.json(), await first.json());
  const reused = await sdk
    .request('POST', '/clients', { body: { name: 'Other' }, idempotencyKey: 'sdk-replay-1' })
    .catch((e) => e);
  assert.ok(reused instanceof ApiError);
  assert.deepEqual([reused.status, reused.code], [409, 'IDEMPOTENCY_KEY_REUSED']);
});

test('a POST the spec does not cover gets no Idempotency-Key', async () => {
  const rec = recording();
  const sdk = sdkFor({ fetch: rec.fetch });
  await sdk.auth.keys.create({ name: 'sdk made', scopes: ['read'] });
  assert.equal(rec.sent[0]!.headers.get('idempotency-key'), null);
});

test('no retry on 400 or 404: the error body, status and request id reach the caller', async () => {
  const rec = recording();
  const sdk = sdkFor({ fetch: rec.fetch });
  const missing = await sdk.clients.get(2147483000).catch((e) => e);
  assert.ok(missing instanceof ApiError);
  assert.deepEqual([missing.status, missing.code], [404, 'NOT_FOUND']);
  assert.match(missing.requestId!, /^[0-9a-f-]{36}$/);
  assert.equal(rec.sent.length, 1);
  const invalid = await sdk.clients.create({ name: '' }).catch((e) => e);
  assert.deepEqual([invalid.status, invalid.code], [400, 'VALIDATION_ERROR']);
  const cursor = await sdk.clients.listPage({ cursor: 'not-a-cursor' }).catch((e) => e);
  assert.deepEqual([cursor.status, cursor.code], [400, 'INVALID_CURSOR']);
  assert.equal(rec.sent.length, 3, 'each 4xx was sent once');
});

test('update and markPaid carry If-Match from the record read; a stale record gets 412 STALE_WRITE', async () => {
  const rec = recording();
  const sdk = sdkFor({ fetch: rec.fetch });
  const client = await sdk.clients.create({ name: 'Billed' });
  const draft = await sdk.invoices.create({ client_id: client!.id, rows: [{ net_price: 10 }] });
  const rows = [];
  for await (const row of sdk.invoices.rows(draft!).list()) rows.push(row);
  assert.deepEqual(
    rows.map((r) => r.net_price),
    [10],
    'a sub-collection is a resource too',
  );
  const read = await sdk.invoices.get(draft!);
  const etag = rec.sent.length;
  const finalized = await sdk.invoices.update(read!, { status: 'created' });
  assert.equal(rec.sent[etag]!.headers.get('if-match'), `"${read!.updated_at}"`);
  const paid = await sdk.invoices.markPaid(finalized!);
  assert.equal(paid!.status, 'paid');
  const stale = await sdk.invoices.update(finalized!, { comments: 'late' }).catch((e) => e);
  assert.ok(stale instanceof ApiError);
  assert.deepEqual([stale.status, stale.code], [412, 'STALE_WRITE']);
  // mark-paid looks at the status before the version (decision 0049): paid already is 409, stale or not.
  const again = await sdk.invoices.markPaid(finalized!).catch((e) => e);
  assert.deepEqual([again.status, again.code], [409, 'INVOICE_NOT_PAYABLE']);
  const stored = await t.db.db
    .selectFrom('invoices')
    .select(['status', 'paid_sum'])
    .where('id', '=', draft!.id)
    .execute();
  assert.deepEqual(stored, [{ status: 'paid', paid_sum: '10.00' }]);
  const bare = await sdk.invoices.update(draft!.id, { status: 'created' }).catch((e) => e);
  assert.deepEqual([bare.status, bare.code], [428, 'PRECONDITION_REQUIRED'], 'an id alone carries no version');
});

test('the typed openapi-fetch client goes through the same transport', async () => {
  const rec = recording();
  const sdk = sdkFor({ fetch: rec.fetch });
  const { data, error, response } = await sdk.api.POST('/clients', { body: { name: 'Via api' } });
  assert.equal(error, undefined);
  assert.equal(response.status, 201);
  assert.equal(data!.data.name, 'Via api');
  assert.ok(rec.sent[0]!.headers.get('idempotency-key'));
  assert.equal(rec.sent[0]!.headers.get('x-api-key'), t.tenant.keys.admin);
});

test('every top-level collection and item of the document has its helper, from the operation table alone', () => {
  const sdk = sdkFor() as unknown as Record<string, Record<string, unknown>>;
  const camel = (s: string) => s.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());
  const verbs: Record<string, string> = { GET: 'list', POST: 'create' };
  const itemVerbs: Record<string, string> = { GET: 'get', PATCH: 'update', PUT: 'replace', DELETE: 'delete' };
  let checked = 0;
  for (const op of OPERATIONS) {
    const collection = op.path.match(/^\/([^/{}]+)$/);
    const item = op.path.match(/^\/([^/{}]+)\/\{[^}]+\}$/);
    const verb = collection ? verbs[op.method] : item ? itemVerbs[op.method] : undefined;
    if (!verb) continue;
    const resource = sdk[camel((collection ?? item)![1]!)]!;
    assert.equal(typeof resource[verb], 'function', `${op.method} ${op.path} → ${verb}`);
    checked++;
  }
  assert.ok(checked > 150, `${checked} helpers checked`);
});
