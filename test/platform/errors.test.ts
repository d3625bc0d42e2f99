import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type Response } from '../helpers.ts';

const t = await createTestApp({}, { LOG_LEVEL: 'debug' });
const code = (res: Response) => res.body?.error?.code;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Parsed log lines; each chunk the stream received may hold several. */
const logLines = (app = t) =>
  app.logs
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);

test('unknown route and unknown method: 404 NOT_FOUND in the error body', async () => {
  for (const [method, path] of [
    ['GET', '/no-such-thing'],
    ['PUT', '/clients'],
    ['GET', '/clients/1/nope'],
  ] as const) {
    const res = await t.request(method, path);
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.equal(code(res), 'NOT_FOUND');
    assert.equal(typeof res.body.error.message, 'string');
    assert.deepEqual(Object.keys(res.body), ['error']);
  }
  const missing = await t.request('GET', '/clients/999999');
  assert.deepEqual(missing.body, { error: { code: 'NOT_FOUND', message: 'Client not found' } });
});

test('malformed and empty JSON bodies are 400 VALIDATION_ERROR', async () => {
  const malformed = await t.request('POST', '/clients', { body: '{"name": "x",' });
  assert.equal(malformed.status, 400);
  assert.equal(code(malformed), 'VALIDATION_ERROR');
  assert.match(malformed.body.error.message, /not valid JSON/);
  const empty = await t.request('POST', '/clients', { body: '', headers: { 'content-type': 'application/json' } });
  assert.equal(empty.status, 400);
  assert.equal(code(empty), 'VALIDATION_ERROR');
  const badParam = await t.request('GET', '/clients/abc');
  assert.equal(badParam.status, 400);
  assert.equal(code(badParam), 'VALIDATION_ERROR');
  const unknownField = await t.request('POST', '/clients', { body: { name: 'x', nmae: 'y' } });
  assert.equal(code(unknownField), 'VALIDATION_ERROR');
  assert.equal(unknownField.body.error.details.errors[0].field, 'nmae');
});

test('an unexpected failure is 500 INTERNAL_ERROR; the detail goes to the log only', async () => {
  const broken = await createTestApp();
  await sql`alter table clients drop column vat_code`.execute(broken.db.db);
  const res = await broken.request('GET', '/clients', { headers: { 'x-request-id': 'broken-list-1' } });
  assert.equal(res.status, 500);
  assert.equal(code(res), 'INTERNAL_ERROR');
  assert.deepEqual(Object.keys(res.body.error), ['code', 'message']);
  assert.doesNotMatch(res.text, /vat_code|column|select|postgres|stack|\.ts/i);
  assert.equal(res.headers.get('x-request-id'), 'broken-list-1');
  const line = logLines(broken).find(
    (l) => l.level === 50 && l.request_id === 'broken-list-1' && JSON.stringify(l).includes('vat_code'),
  );
  assert.ok(line, 'the error, its detail and the request id are logged');
  const write = await broken.request('POST', '/clients', { body: { name: 'x', vat_code: 'EE1' } });
  assert.equal(write.status, 500);
  assert.doesNotMatch(write.text, /vat_code/);
});

test('every response carries X-Request-Id; a valid incoming one is echoed, an invalid one replaced', async () => {
  const answers = [
    await t.request('GET', '/clients'),
    await t.request('GET', '/nope'),
    await t.request('GET', '/clients', { key: null }),
    await t.request('GET', '/clients', { company: null }),
    await t.request('POST', '/clients', { body: '{' }),
  ];
  for (const res of answers) assert.match(res.headers.get('x-request-id') ?? '', UUID);
  assert.notEqual(answers[0]!.headers.get('x-request-id'), answers[1]!.headers.get('x-request-id'));
  const echoed = await t.request('GET', '/clients', { headers: { 'x-request-id': 'trace-abc.123:x_y-z' } });
  assert.equal(echoed.headers.get('x-request-id'), 'trace-abc.123:x_y-z');
  for (const bad of ['has space', 'x'.repeat(129), 'semi;colon']) {
    const res = await t.request('GET', '/clients', { headers: { 'x-request-id': bad } });
    assert.match(res.headers.get('x-request-id') ?? '', UUID, bad);
  }
});

test('log lines of a request carry its request_id', async () => {
  await t.request('GET', '/clients', { headers: { 'x-request-id': 'log-trace-1' } });
  const lines = logLines().filter((l) => l.request_id === 'log-trace-1');
  const messages = lines.map((l) => l.msg);
  assert.ok(messages.includes('incoming request'), messages.join(', '));
  assert.ok(messages.includes('request completed'), messages.join(', '));
  assert.ok(messages.includes('request headers'), messages.join(', '));
  assert.ok(
    logLines()
      .filter((l) => l.req || l.res)
      .every((l) => typeof l.request_id === 'string'),
    'no request log line without a request_id',
  );
});

test('API keys and Authorization values never reach a log line', async () => {
  const bearer = 'Bearer tok_super_secret_value_123';
  await t.request('GET', '/clients', {
    key: 'admin',
    headers: { authorization: bearer, cookie: 'session=cookie_secret_456', 'x-request-id': 'redact-1' },
  });
  await t.request('POST', '/clients', { key: 'write', body: { name: 'Logged' }, headers: { authorization: bearer } });
  await t.request('GET', '/clients', { key: 'svc_live_invalid_but_secret_789', headers: { authorization: bearer } });
  await t.request('GET', '/clients', { key: 'read', company: 'not-a-uuid' });
  await t.request('GET', '/nope', { key: 'personal' });
  const joined = t.logs.join('');
  for (const secret of [
    ...Object.values(t.tenant.keys),
    'tok_super_secret_value_123',
    'cookie_secret_456',
    'svc_live_invalid_but_secret_789',
  ]) {
    assert.ok(!joined.includes(secret), `a secret leaked into the log: ${secret.slice(0, 14)}...`);
  }
  const headersLine = logLines().find((l) => l.request_id === 'redact-1' && l.msg === 'request headers');
  assert.ok(headersLine, 'the headers were logged');
  assert.equal(headersLine.headers['x-api-key'], '[redacted]');
  assert.equal(headersLine.headers.authorization, '[redacted]');
  assert.equal(headersLine.headers.cookie, '[redacted]');
  assert.equal(headersLine.headers['x-service-company'], t.tenant.companyId);
});

test('a deleted client disappears from reads and lists; its id is 404 on PATCH and DELETE', async () => {
  const tenant = await t.newTenant();
  const client = await t.request('POST', '/clients', { tenant, body: { name: 'Doomed' } });
  const kept = await t.request('POST', '/clients', { tenant, body: { name: 'Kept' } });
  const id = client.body.data.id;
  assert.equal((await t.request('DELETE', `/clients/${id}`, { tenant })).status, 204);
  const stored = await t.db.db
    .selectFrom('clients')
    .select(['name', 'deleted_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.name, 'Doomed');
  assert.ok(stored.deleted_at, 'the row stays, marked deleted');
  assert.equal((await t.request('GET', `/clients/${id}`, { tenant })).status, 404);
  const list = await t.request('GET', '/clients', { tenant });
  assert.deepEqual(
    list.body.data.map((c: { id: number }) => c.id),
    [kept.body.data.id],
  );
  assert.equal(list.body.meta.total, 1);
  assert.equal((await t.request('GET', '/clients?name=Doomed', { tenant })).body.meta.total, 0);
  for (const [method, body] of [
    ['PATCH', { name: 'Back' }],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/clients/${id}`, { tenant, body });
    assert.equal(res.status, 404, method);
    assert.equal(code(res), 'NOT_FOUND');
  }
  const contact = await t.request('POST', '/contacts', { tenant, body: { client_id: id, name: 'Orphan' } });
  assert.equal(code(contact), 'INVALID_CLIENT', 'a deleted client cannot be referenced');
});

test('a deleted contact disappears from reads, lists and its client; its id is 404 on PATCH and DELETE', async () => {
  const tenant = await t.newTenant();
  const client = await t.request('POST', '/clients', { tenant, body: { name: 'Holder' } });
  const contact = await t.request('POST', '/contacts', {
    tenant,
    body: { client_id: client.body.data.id, name: 'Gone' },
  });
  const id = contact.body.data.id;
  assert.equal((await t.request('DELETE', `/contacts/${id}`, { tenant })).status, 204);
  assert.equal((await t.request('GET', `/contacts/${id}`, { tenant })).status, 404);
  assert.deepEqual((await t.request('GET', '/contacts', { tenant })).body.data, []);
  assert.deepEqual((await t.request('GET', `/clients/${client.body.data.id}`, { tenant })).body.data.contacts, []);
  assert.equal((await t.request('PATCH', `/contacts/${id}`, { tenant, body: { name: 'Back' } })).status, 404);
  assert.equal((await t.request('DELETE', `/contacts/${id}`, { tenant })).status, 404);
});
