import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { addMember } from '../../../src/modules/companies/companies.service.ts';
import { generateKey } from '../../../src/platform/keys.ts';
import { expandScopes } from '../../../src/platform/scopes.ts';
import { drainOnce } from '../../../src/background/webhooks/engine.ts';
import { loadModules } from '../../../src/modules/index.ts';
import { verifySignature } from '../../../docs/examples/verify-signature.ts';
import { startReceiver } from '../../webhooks/receiver.ts';
import { deliverAll, memoryLog, webhookApp } from '../../webhooks/setup.ts';

const t = await webhookApp();
const hook = 'https://93.184.216.34/hooks';

test('create, read, list, update and delete a subscription; the secret is shown once', async () => {
  const created = await t.request('POST', '/webhooks', { body: { webhook: 'client.created', url: hook } });
  assert.equal(created.status, 201, created.text);
  const sub = created.body.data;
  assert.match(sub.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(
    { ...sub, id: 0, secret: '', created_at: '', updated_at: '' },
    {
      id: 0,
      webhook: 'client.created',
      url: hook,
      is_active: true,
      status: 'active',
      failure_count: 0,
      last_failure_at: null,
      disabled_at: null,
      disabled_reason: null,
      secret: '',
      created_at: '',
      updated_at: '',
    },
  );
  assert.match(sub.created_at, /Z$/);
  const stored = await t.db.db
    .selectFrom('webhooks')
    .select(['secret', 'created_by_key_id', 'created_by_person_id'])
    .where('id', '=', sub.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(stored, {
    secret: sub.secret,
    created_by_key_id: t.tenant.keyIds.admin,
    created_by_person_id: t.tenant.ownerPersonId,
  });

  const read = await t.request('GET', `/webhooks/${sub.id}`);
  assert.equal(read.status, 200);
  assert.equal(read.body.data.secret, undefined, 'never shown again');
  assert.ok(!read.text.includes(sub.secret));
  const list = await t.request('GET', '/webhooks?webhook=client.created&status=active');
  assert.equal(list.status, 200);
  assert.ok(list.body.data.some((w: { id: number }) => w.id === sub.id));
  assert.ok(!list.text.includes(sub.secret));
  assert.ok(!t.logs.join('').includes(sub.secret), 'nor logged');

  const patched = await t.request('PATCH', `/webhooks/${sub.id}`, {
    body: { webhook: 'client.updated', url: `${hook}/v2` },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.webhook, 'client.updated');
  assert.equal(patched.body.data.url, `${hook}/v2`);
  assert.ok(patched.body.data.updated_at > sub.updated_at);
  const unchanged = await t.request('PATCH', `/webhooks/${sub.id}`, { body: {} });
  assert.equal(unchanged.status, 200);
  const paused = await t.request('GET', '/webhooks?status=paused');
  assert.equal(paused.body.data.length, 0);

  assert.equal((await t.request('DELETE', `/webhooks/${sub.id}`)).status, 204);
  assert.equal((await t.request('GET', `/webhooks/${sub.id}`)).status, 404);
  assert.equal((await t.request('DELETE', `/webhooks/${sub.id}`)).status, 404);
  assert.equal((await t.request('POST', `/webhooks/${sub.id}/rotate-secret`)).status, 404);
  assert.equal((await t.request('GET', `/webhooks/${sub.id}/deliveries`)).status, 404);
  assert.equal((await t.request('PATCH', `/webhooks/${sub.id}`, { body: { is_active: true } })).status, 404);
});

test('POST /webhooks is not idempotency-covered: its answer carries a one-time secret', async () => {
  const headers = { 'idempotency-key': 'same-key' };
  const first = await t.request('POST', '/webhooks', { headers, body: { webhook: 'task.created', url: hook } });
  const second = await t.request('POST', '/webhooks', { headers, body: { webhook: 'task.created', url: hook } });
  assert.equal(second.status, 201);
  assert.equal(second.headers.get('idempotency-replayed'), null);
  assert.notEqual(first.body.data.id, second.body.data.id);
  assert.notEqual(first.body.data.secret, second.body.data.secret);
});

test('a duplicate event and URL pair is a second subscription and delivers twice; delete closes what is queued', async () => {
  const receiver = await startReceiver();
  const a = await t.request('POST', '/webhooks', { body: { webhook: 'contact.created', url: receiver.url } });
  const b = await t.request('POST', '/webhooks', { body: { webhook: 'contact.created', url: receiver.url } });
  assert.equal(b.status, 201);
  assert.notEqual(a.body.data.id, b.body.data.id);
  assert.notEqual(a.body.data.secret, b.body.data.secret, 'a secret per subscription');
  const client = await t.request('POST', '/clients', { body: { name: 'Twice' } });
  assert.equal(
    (await t.request('POST', '/contacts', { body: { client_id: client.body.data.id, name: 'Two' } })).status,
    201,
  );
  await deliverAll(t);
  assert.equal(receiver.received.length, 2);
  assert.equal(receiver.received[0]!.body.id, receiver.received[1]!.body.id, 'the same event, once per subscription');
  assert.deepEqual(
    new Set(receiver.received.map((r) => r.headers['x-service-webhook-id'])),
    new Set([String(a.body.data.id), String(b.body.data.id)]),
  );

  assert.equal(
    (await t.request('POST', '/contacts', { body: { client_id: client.body.data.id, name: 'Three' } })).status,
    201,
  );
  assert.equal((await t.request('DELETE', `/webhooks/${a.body.data.id}`)).status, 204);
  await deliverAll(t);
  assert.equal(receiver.received.length, 3, 'nothing is sent for a deleted subscription');
  assert.equal(receiver.received[2]!.headers['x-service-webhook-id'], String(b.body.data.id));
});

test('admin keys of owners and administrators only: read, write, personal keys and a plain member are refused', async () => {
  for (const key of ['read', 'write', 'personal', 'personalAdmin'] as const) {
    for (const [method, path] of [
      ['GET', '/webhooks'],
      ['POST', '/webhooks'],
      ['GET', '/webhooks/events'],
    ] as const) {
      const res = await t.request(method, path, {
        key,
        body: method === 'POST' ? { webhook: 'client.created', url: hook } : undefined,
      });
      assert.equal(res.status, 403, `${key} ${method} ${path}`);
      assert.equal(res.body.error.code, 'FORBIDDEN');
      assert.equal(res.body.error.details.required_scope, 'admin');
    }
  }
  const member = await addMember(t.db.db, t.tenant.companyId, {
    name: 'Pat',
    surname: 'Plain',
    email: 'pat@test.example',
    role: 'member',
    status: 'active',
  });
  const key = generateKey();
  await t.db.db
    .insertInto('api_keys')
    .values({
      company_id: t.tenant.companyId,
      name: 'demoted admin key',
      key_prefix: key.prefix,
      key_hash: key.hash,
      kind: 'integration',
      scopes: expandScopes(['admin']),
      person_id: member.person_id,
      revoked_at: null,
      expires_at: null,
      grace_expires_at: null,
      rotated_to_id: null,
      ip_allowlist: null,
      last_used_at: null,
    })
    .execute();
  const res = await t.request('GET', '/webhooks', { key: key.fullKey });
  assert.equal(res.status, 403);
  assert.equal(res.body.error.code, 'FORBIDDEN');
  assert.match(res.body.error.message, /owners and administrators/);
  assert.equal((await t.request('GET', '/webhooks', { key: null })).status, 401);
});

test("another company's subscription is 404 on every route", async () => {
  const other = await t.newTenant();
  const theirs = await t.request('POST', '/webhooks', { tenant: other, body: { webhook: 'task.created', url: hook } });
  assert.equal(theirs.status, 201);
  const id = theirs.body.data.id;
  for (const [method, path, body] of [
    ['GET', `/webhooks/${id}`],
    ['PATCH', `/webhooks/${id}`, { is_active: false }],
    ['DELETE', `/webhooks/${id}`],
    ['POST', `/webhooks/${id}/rotate-secret`],
    ['GET', `/webhooks/${id}/deliveries`],
  ] as const) {
    const res = await t.request(method, path, { body });
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  const mine = await t.request('GET', '/webhooks?limit=200');
  assert.ok(!mine.body.data.some((w: { id: number }) => w.id === id));
});

test('bodies are validated: unknown event, missing or extra fields, bad flags, bad filters', async () => {
  const cases: Array<[unknown, string]> = [
    [{ webhook: 'client.exploded', url: hook }, 'webhook'],
    [{ webhook: 'invoice.deleted', url: hook }, 'webhook'],
    [{ url: hook }, 'webhook'],
    [{ webhook: 'client.created' }, 'url'],
    [{ webhook: 'client.created', url: hook, secret: 'mine' }, 'secret'],
  ];
  for (const [body, field] of cases) {
    const res = await t.request('POST', '/webhooks', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.ok(JSON.stringify(res.body.error).includes(field), `${field}: ${res.text}`);
  }
  const created = await t.request('POST', '/webhooks', { body: { webhook: 'task.updated', url: hook } });
  assert.equal(
    (await t.request('PATCH', `/webhooks/${created.body.data.id}`, { body: { is_active: 'yes' } })).status,
    400,
  );
  assert.equal(
    (await t.request('PATCH', `/webhooks/${created.body.data.id}`, { body: { failure_count: 0 } })).status,
    400,
  );
  assert.equal((await t.request('GET', '/webhooks?colour=red')).body.error.code, 'UNKNOWN_FILTER_FIELD');
  const badFilter = await t.request('GET', '/webhooks?status=asleep');
  assert.equal(badFilter.status, 422);
  assert.equal(badFilter.body.error.code, 'INVALID_FILTER_VALUE');
  assert.equal((await t.request('GET', '/webhooks?cursor=abc')).body.error.code, 'INVALID_CURSOR');
  assert.equal((await t.request('GET', `/webhooks/${created.body.data.id}/deliveries?status=lost`)).status, 422);
  assert.equal((await t.request('GET', `/webhooks/${created.body.data.id}/deliveries?event_id=nope`)).status, 422);
  assert.equal((await t.request('GET', '/webhooks/abc')).status, 400);
});

test('at most 100 subscriptions per company: the next one is 409 WEBHOOK_LIMIT_REACHED', async () => {
  const other = await t.newTenant();
  await t.db.db
    .insertInto('webhooks')
    .values(
      Array.from({ length: 100 }, () => ({
        company_id: other.companyId,
        event: 'client.created',
        url: hook,
        secret: 'whsec_x',
        created_by_key_id: null,
        created_by_person_id: null,
      })),
    )
    .execute();
  const res = await t.request('POST', '/webhooks', { tenant: other, body: { webhook: 'client.created', url: hook } });
  assert.equal(res.status, 409);
  assert.equal(res.body.error.code, 'WEBHOOK_LIMIT_REACHED');
  assert.equal(res.body.error.details.limit, 100);
});

test('a lapsed subscription blocks webhook writes except DELETE', async () => {
  const lapsed = await t.newTenant();
  const created = await t.request('POST', '/webhooks', {
    tenant: lapsed,
    body: { webhook: 'client.created', url: hook },
  });
  await t.db.db
    .updateTable('companies')
    .set({ subscription_status: 'lapsed' })
    .where('id', '=', lapsed.companyId)
    .execute();
  const id = created.body.data.id;
  for (const [method, path, body] of [
    ['POST', '/webhooks', { webhook: 'client.created', url: hook }],
    ['PATCH', `/webhooks/${id}`, { is_active: false }],
    ['POST', `/webhooks/${id}/rotate-secret`],
  ] as const) {
    const res = await t.request(method, path, { tenant: lapsed, body });
    assert.equal(res.status, 403, `${method} ${path}`);
    assert.equal(res.body.error.code, 'SUBSCRIPTION_READ_ONLY');
  }
  assert.equal((await t.request('GET', '/webhooks', { tenant: lapsed })).status, 200);
  assert.equal((await t.request('DELETE', `/webhooks/${id}`, { tenant: lapsed })).status, 204);
});

test('GET /webhooks/events lists the catalogue that decides what fires', async () => {
  const res = await t.request('GET', '/webhooks/events');
  assert.equal(res.status, 200);
  const expected = Object.entries(loadModules().events).flatMap(([entity, actions]) =>
    actions.map((action) => `${entity}.${action}`),
  );
  assert.deepEqual(
    res.body.data.map((e: { event: string }) => e.event),
    expected,
  );
  for (const name of ['client.created', 'client.updated', 'contact.created', 'time_entry.created', 'task.deleted'])
    assert.ok(expected.includes(name));
  assert.ok(!expected.includes('invoice.deleted') && !expected.includes('time_entry.updated'));
  assert.deepEqual(res.body.meta, { total: expected.length, limit: expected.length, offset: 0, has_more: false });
  const task = res.body.data.find((e: { event: string }) => e.event === 'task.updated');
  assert.deepEqual([task.entity, task.action], ['task', 'updated']);
  assert.match(task.description, /status, assignee and date/);
});

test('GET /webhooks/example is the live delivery shape: same keys, lean client, signed headers', async () => {
  const fresh = await t.newTenant();
  const sample = await t.request('GET', '/webhooks/example?event=client.created', { tenant: fresh });
  assert.equal(sample.status, 200, sample.text);
  const body = sample.body.data;
  assert.deepEqual(Object.keys(body), ['id', 'event', 'occurred_at', 'data']);
  assert.equal(body.event, 'client.created');
  assert.ok(!('contacts' in body.data) && !('contacts_truncated' in body.data));
  const h = sample.body.headers;
  assert.equal(h['X-Service-Event'], 'client.created');
  assert.equal(h['X-Service-Delivery-Id'], body.id);
  assert.equal(h['User-Agent'], 'Service-Webhooks/3.0');
  assert.equal(h['X-Service-Retry-Num'], undefined);
  assert.ok(
    verifySignature(
      JSON.stringify(body),
      h['X-Service-Signature'],
      h['X-Service-Timestamp'],
      sample.body.example_secret,
    ),
    'signed like a delivery',
  );

  // The sample's record has exactly the keys a live delivery's record has.
  const receiver = await startReceiver();
  await t.request('POST', '/webhooks', { tenant: fresh, body: { webhook: 'client.created', url: receiver.url } });
  await t.request('POST', '/clients', { tenant: fresh, body: { name: 'Live One' } });
  await deliverAll(t);
  const live = receiver.received[0]!.body;
  assert.deepEqual(Object.keys(body.data).sort(), Object.keys(live.data).sort());
  // Once the company has a real event, the example shows its record.
  const real = await t.request('GET', '/webhooks/example?event=client.created', { tenant: fresh });
  assert.deepEqual(real.body.data.data, live.data);
  assert.notEqual(real.body.data.id, live.id, 'the sample gets an id of its own');

  const deleted = await t.request('GET', '/webhooks/example?event=contact.deleted', { tenant: fresh });
  assert.deepEqual(Object.keys(deleted.body.data.data), ['id']);
  assert.equal((await t.request('GET', '/webhooks/example?event=nope.created')).status, 400);
  assert.equal((await t.request('GET', '/webhooks/example')).status, 400);
});

test('the OpenAPI document lists the webhook routes with their error codes', async () => {
  const doc = (await t.request('GET', '/openapi.json', { key: null, company: null })).body;
  const replay = doc.paths['/webhooks/{webhook_id}/deliveries/{event_id}/replay'].post;
  assert.ok(replay.responses['409'].description.includes('DELIVERY_IN_PROGRESS'));
  assert.ok(replay.responses['503'].description.includes('WEBHOOKS_COMING_SOON'));
  assert.ok(replay.responses['202']);
  assert.equal(doc.paths['/webhooks/{webhook_id}'].delete['x-scope'], 'admin');
  assert.ok(doc.paths['/webhooks/example'].get);
});

test('SVC_WEBHOOKS_ENABLED=false: every /webhooks route answers 503 and nothing is delivered', async () => {
  const off = await createTestApp({}, { SVC_WEBHOOKS_ENABLED: 'false', SVC_WEBHOOK_ALLOW_PRIVATE: 'true' });
  const receiver = await startReceiver();
  const routes = [
    ['GET', '/webhooks'],
    ['POST', '/webhooks'],
    ['GET', '/webhooks/events'],
    ['GET', '/webhooks/example?event=client.created'],
    ['GET', '/webhooks/1'],
    ['PATCH', '/webhooks/1'],
    ['DELETE', '/webhooks/1'],
    ['POST', '/webhooks/1/rotate-secret'],
    ['GET', '/webhooks/1/deliveries'],
    ['POST', '/webhooks/1/deliveries/00000000-0000-4000-8000-000000000000/replay'],
  ] as const;
  for (const [method, path] of routes) {
    const res = await off.request(method, path, {
      body: method === 'POST' || method === 'PATCH' ? { webhook: 'client.created', url: receiver.url } : undefined,
    });
    assert.equal(res.status, 503, `${method} ${path}`);
    assert.equal(res.body.error.code, 'WEBHOOKS_COMING_SOON');
  }
  // A subscription left from before the switch gets nothing.
  await off.db.db
    .insertInto('webhooks')
    .values({
      company_id: off.tenant.companyId,
      event: 'client.created',
      url: receiver.url,
      secret: 'whsec_x',
      created_by_key_id: null,
      created_by_person_id: null,
    })
    .execute();
  assert.equal((await off.request('POST', '/clients', { body: { name: 'Quiet' } })).status, 201);
  assert.equal(
    await drainOnce({ db: off.db.db, config: off.app.config, log: memoryLog(), shapes: loadModules().eventShapes }),
    0,
  );
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(receiver.received.length, 0);
  assert.equal((await off.request('GET', '/events')).status, 200, 'the change feed stays available');
});
