import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { as, sessionFor } from '../support/sessions.ts';
import { startReceiver } from './receiver.ts';
import { deliverAll, subscribe, webhookApp } from './setup.ts';
import { deliverLegacy, legacyRows, subscribeV1, withWebhooks } from './legacy-setup.ts';

// Web-origin writes (a session credential) fire no v3 event; creates of clients and contacts fire v1.0 events,
// delivered by the legacy engine to its own subscriptions only (docs/decisions/0054).
const SECRET = 'legacy-signing-key';
const t = await webhookApp({ SVC_LEGACY_WEBHOOK_SECRET: SECRET, SVC_LEGACY_WEBHOOK_RETRY_DELAYS: '0.05,0.1' });
const owner = await sessionFor(t, { personId: t.tenant.ownerPersonId });

// Each test starts with no v1.0 subscription, so a count says what that test's write queued.
beforeEach(async () => {
  await t.db.db.deleteFrom('legacy_webhook_subscriptions').execute();
});

const sign = (raw: Buffer) => createHmac('sha256', SECRET).update(raw).digest('hex');

async function webClient(name: string) {
  const res = await t.request('POST', '/clients', { ...as(owner), body: { name } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

async function v3EventsOf(entity: string, recordId: number) {
  return t.db.db
    .selectFrom('events')
    .select('event')
    .where('entity', '=', entity)
    .where('record_id', '=', recordId)
    .execute();
}

test('a client created in the web app: the v1.0 subscriber gets the flat, signed record; v3 gets nothing', async () => {
  const v1 = await startReceiver('/v1');
  const v3 = await startReceiver('/v3');
  await subscribeV1(t, 'client_added', v1.url);
  await subscribe(t, 'client.created', v3.url);
  const client = await webClient('Web Client Ltd');
  assert.equal((await legacyRows(t)).length, 1, 'queued in the transaction of the write');
  await deliverLegacy(t);
  await deliverAll(t);
  const [got] = await v1.waitFor(1);
  assert.equal(v1.received.length, 1);
  assert.equal(got!.method, 'POST');
  assert.equal(got!.headers['content-type'], 'application/json');
  assert.equal(got!.headers['x-webhook-signature'], sign(got!.raw));
  assert.match(got!.headers['x-webhook-signature'] as string, /^[0-9a-f]{64}$/);
  assert.equal(got!.headers['x-service-signature'], undefined, 'none of the v3 headers');
  const read = await t.request('GET', `/clients/${client.id}`);
  assert.deepEqual(got!.body, read.body.data, 'the record as GET shows it, without the data envelope');
  assert.equal(v3.received.length, 0, 'the v3 subscriber of client.created gets nothing');
  assert.deepEqual(await v3EventsOf('client', client.id), [], 'no v3 outbox event, so nothing in the feed');
  assert.deepEqual(await legacyRows(t), [], 'no history once delivered');
  const audit = await t.db.db
    .selectFrom('activities')
    .select(['action', 'source'])
    .where('entity', '=', 'client')
    .where('record_id', '=', client.id)
    .execute();
  assert.deepEqual(audit, [{ action: 'created', source: 'web' }], 'the audit row stays');
});

test('a contact created in the web app fires contact_added to v1.0 only; client_added subscribers are not told', async () => {
  const client = await webClient('Contact Holder');
  await deliverLegacy(t);
  const contacts = await startReceiver('/contacts');
  const clients = await startReceiver('/clients');
  const v3 = await startReceiver('/v3');
  await subscribeV1(t, 'contact_added', contacts.url);
  await subscribeV1(t, 'client_added', clients.url);
  await subscribe(t, 'contact.created', v3.url);
  const res = await t.request('POST', '/contacts', { ...as(owner), body: { client_id: client.id, name: 'Gil Web' } });
  assert.equal(res.status, 201, res.text);
  await deliverLegacy(t);
  await deliverAll(t);
  const [got] = await contacts.waitFor(1);
  const read = await t.request('GET', `/contacts/${res.body.data.id}`);
  assert.deepEqual(got!.body, read.body.data);
  assert.equal(got!.headers['x-webhook-signature'], sign(got!.raw));
  assert.equal(clients.received.length, 0);
  assert.equal(v3.received.length, 0);
  assert.deepEqual(await v3EventsOf('contact', res.body.data.id), []);
});

test('a client created with an API key fires v3 client.created and nothing to v1.0', async () => {
  const v1 = await startReceiver('/v1');
  const v3 = await startReceiver('/v3');
  await subscribeV1(t, 'client_added', v1.url);
  await subscribe(t, 'client.created', v3.url);
  const res = await t.request('POST', '/clients', { body: { name: 'Key Client' } });
  assert.equal(res.status, 201);
  assert.deepEqual(await legacyRows(t), [], 'no v1.0 event queued');
  await deliverAll(t);
  await deliverLegacy(t);
  const [got] = await v3.waitFor(1);
  assert.equal(got!.body.event, 'client.created');
  assert.equal(got!.body.data.id, res.body.data.id);
  assert.equal(v1.received.length, 0);
});

test('without the signing key no X-Webhook-Signature is sent', async () => {
  const v1 = await startReceiver('/unsigned');
  await subscribeV1(t, 'client_added', v1.url);
  await webClient('Unsigned Ltd');
  const legacy = { ...t.deps.config.webhooks.legacy, secret: undefined };
  await deliverLegacy(t, withWebhooks(t, { legacy }));
  const received = await v1.waitFor(1);
  const signed = received.filter((r) => 'x-webhook-signature' in r.headers);
  assert.equal(signed.length, 0);
  assert.equal(received[0]!.headers['content-type'], 'application/json');
});

test('a failing receiver gets a few attempts seconds apart, then the row is gone and it stays subscribed', async () => {
  const v1 = await startReceiver('/failing');
  v1.handle(() => ({ status: 500, body: 'down' }));
  const sub = await subscribeV1(t, 'client_added', v1.url);
  await webClient('Retried Ltd');
  await deliverLegacy(t);
  assert.equal(v1.received.length, 3, 'the first attempt and the configured two retries');
  assert.equal(new Set(v1.received.map((r) => r.raw.toString())).size, 1, 'every attempt sends the same bytes');
  assert.ok(v1.received[1]!.at - v1.received[0]!.at >= 45, 'retries wait their delay');
  assert.deepEqual(await legacyRows(t), [], 'given up: no history');
  assert.ok(t.deps.log.lines.some((l) => l.msg === 'legacy v1.0 webhook not delivered: given up'));
  const stored = await t.db.db
    .selectFrom('legacy_webhook_subscriptions')
    .select('id')
    .where('id', '=', sub.id)
    .executeTakeFirst();
  assert.ok(stored, 'never auto-disabled or removed');
});

test('a private address accepted at subscribe time fails at delivery; nothing reaches it', async () => {
  const v1 = await startReceiver('/private');
  await subscribeV1(t, 'client_added', v1.url);
  await subscribeV1(t, 'client_added', `https://127.0.0.1:${v1.port}/private`);
  await webClient('Private Target Ltd');
  assert.equal((await legacyRows(t)).length, 2);
  const lines = t.deps.log.lines.length;
  await deliverLegacy(t, withWebhooks(t, { allowPrivate: false }));
  assert.equal(v1.received.length, 0, 'no request reached the private receiver');
  assert.deepEqual(await legacyRows(t), [], 'refused at once: a refused address stays refused');
  const refusals = t.deps.log.lines.slice(lines).map((l) => String(l.obj.why));
  assert.equal(refusals.length, 2);
  assert.ok(
    refusals.every((why) => why.startsWith('blocked: ')),
    refusals.join('; '),
  );
  assert.ok(
    refusals.some((why) => why.includes('127.0.0.1 is not a public address')),
    refusals.join('; '),
  );
});

test("another company's v1.0 subscription gets nothing", async () => {
  const other = await t.newTenant({ name: 'Other Co' });
  const mine = await startReceiver('/mine');
  const theirs = await startReceiver('/theirs');
  await subscribeV1(t, 'client_added', mine.url);
  await subscribeV1(t, 'client_added', theirs.url, other);
  await webClient('Mine Only Ltd');
  await deliverLegacy(t);
  await mine.waitFor(1);
  assert.equal(theirs.received.length, 0);
});

test('updates and deletes made in the web app fire no v3 event either', async () => {
  const v3 = await startReceiver('/v3-changes');
  for (const event of ['client.updated', 'client.deleted', 'contact.updated', 'contact.deleted'])
    await subscribe(t, event, v3.url);
  const client = await webClient('Changed On The Web');
  const contact = await t.request('POST', '/contacts', {
    ...as(owner),
    body: { client_id: client.id, name: 'Changing' },
  });
  assert.equal(contact.status, 201);
  const patch = await t.request('PATCH', `/clients/${client.id}`, { ...as(owner), body: { name: 'Renamed' } });
  assert.equal(patch.status, 200, patch.text);
  const patchContact = await t.request('PATCH', `/contacts/${contact.body.data.id}`, {
    ...as(owner),
    body: { name: 'Renamed too' },
  });
  assert.equal(patchContact.status, 200, patchContact.text);
  assert.equal((await t.request('DELETE', `/contacts/${contact.body.data.id}`, as(owner))).status, 204);
  assert.equal((await t.request('DELETE', `/clients/${client.id}`, as(owner))).status, 204);
  await deliverAll(t);
  assert.equal(v3.received.length, 0);
  assert.deepEqual(await v3EventsOf('client', client.id), []);
  assert.deepEqual(await v3EventsOf('contact', contact.body.data.id), []);
  const feed = await t.request('GET', '/events?limit=200');
  assert.ok(!feed.body.data.some((e: any) => e.data.id === client.id && e.event.startsWith('client.')));
  const audit = await t.db.db
    .selectFrom('activities')
    .select(['entity', 'action', 'source'])
    .where('source', '=', 'web')
    .where((eb) =>
      eb.or([
        eb.and([eb('entity', '=', 'client'), eb('record_id', '=', client.id)]),
        eb.and([eb('entity', '=', 'contact'), eb('record_id', '=', contact.body.data.id)]),
      ]),
    )
    .execute();
  assert.equal(audit.length, 6, 'every web write keeps its audit row');
});
