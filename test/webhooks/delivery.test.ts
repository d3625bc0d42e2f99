import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { sql } from 'kysely';
import { verifySignature } from '../../docs/examples/verify-signature.ts';
import { startReceiver } from './receiver.ts';
import { attemptsOf, createClient, deliverAll, recordRaw, subscribe, webhookApp } from './setup.ts';

const t = await webhookApp();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An implementation of the signature rule that shares nothing with the service: WebCrypto. */
async function independentSignature(secret: string, timestamp: string, raw: Buffer): Promise<string> {
  const key = await webcrypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const message = Buffer.concat([Buffer.from(`${timestamp}.`), raw]);
  const mac = new Uint8Array(await webcrypto.subtle.sign('HMAC', key, message));
  return `sha256=${Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

const header = (raw: string[], name: string) =>
  raw.filter((_, i) => i % 2 === 0 && raw[i]!.toLowerCase() === name).length;

test('a delivery carries the spec body, every header and a verifiable signature', async () => {
  const receiver = await startReceiver('/hook?source=svc');
  const sub = await subscribe(t, 'client.created', receiver.url);
  const client = await createClient(t, 'Signed Ltd');
  await deliverAll(t);
  const [got] = await receiver.waitFor(1);
  assert.equal(receiver.received.length, 1);
  assert.equal(got!.method, 'POST');
  assert.equal(got!.url, '/hook?source=svc');
  const h = got!.headers;
  assert.equal(h['content-type'], 'application/json');
  assert.equal(h['user-agent'], 'Service-Webhooks/3.0');
  assert.equal(h['x-service-event'], 'client.created');
  assert.match(h['x-service-delivery-id'] as string, UUID);
  assert.equal(h['x-service-webhook-id'], String(sub.id));
  assert.equal(h['x-service-retry-num'], undefined, 'no retry header on a first attempt');
  assert.equal(h.host, `127.0.0.1:${receiver.port}`);
  assert.equal(header(got!.rawHeaders, 'host'), 1, 'exactly one Host header');
  const timestamp = h['x-service-timestamp'] as string;
  assert.match(timestamp, /^\d+$/);
  assert.ok(Math.abs(Number(timestamp) - Date.now() / 1000) < 30);
  assert.equal(h['x-service-signature'], await independentSignature(sub.secret, timestamp, got!.raw));
  assert.match(h['x-service-signature'] as string, /^sha256=[0-9a-f]{64}$/);
  assert.ok(
    verifySignature(got!.raw, h['x-service-signature'] as string, timestamp, sub.secret),
    'the README snippet accepts it',
  );
  assert.ok(
    !verifySignature(got!.raw, h['x-service-signature'] as string, timestamp, 'whsec_wrong'),
    'and refuses another secret',
  );
  assert.ok(
    !verifySignature(got!.raw, h['x-service-signature'] as string, String(Number(timestamp) - 301), sub.secret),
    'and an old timestamp',
  );

  const event = await t.db.db
    .selectFrom('events')
    .select(['uuid', 'occurred_at'])
    .where('company_id', '=', t.tenant.companyId)
    .where('event', '=', 'client.created')
    .where('record_id', '=', client.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(Object.keys(got!.body), ['id', 'event', 'occurred_at', 'data']);
  assert.equal(got!.body.id, event.uuid);
  assert.equal(got!.body.id, h['x-service-delivery-id']);
  assert.equal(got!.body.event, 'client.created');
  assert.equal(got!.body.occurred_at, event.occurred_at);
  const { contacts: _c, contacts_truncated: _ct, ...lean } = client;
  assert.deepEqual(got!.body.data, lean, 'the lean client: the record without contacts');
  assert.ok(!('contacts' in got!.body.data) && !('contacts_truncated' in got!.body.data));

  const [row] = await attemptsOf(t, sub.id);
  assert.equal(row.status, 'delivered');
  assert.equal(row.event_id, event.uuid);
  assert.equal(row.event, 'client.created');
  assert.equal(row.attempt, 1);
  assert.equal(row.replay, false);
  assert.equal(row.response_status, 200);
  assert.equal(row.response_body, 'ok');
  assert.equal(typeof row.duration_ms, 'number');
  assert.equal(row.next_retry_at, null);
  assert.ok(Date.parse(row.finished_at) >= Date.parse(row.started_at));
});

test('deleted events carry only {id}; updates carry the lean record', async () => {
  const receiver = await startReceiver();
  await subscribe(t, 'client.updated', receiver.url);
  await subscribe(t, 'client.deleted', receiver.url);
  const client = await createClient(t, 'Short Lived');
  assert.equal((await t.request('PATCH', `/clients/${client.id}`, { body: { name: 'Renamed' } })).status, 200);
  assert.equal((await t.request('DELETE', `/clients/${client.id}`)).status, 204);
  await deliverAll(t);
  const got = await receiver.waitFor(2);
  const updated = got.find((r) => r.body.event === 'client.updated')!;
  const deleted = got.find((r) => r.body.event === 'client.deleted')!;
  assert.equal(updated.body.data.name, 'Renamed');
  assert.ok(!('contacts' in updated.body.data));
  assert.deepEqual(deleted.body.data, { id: client.id });
});

test('Host names the subscribed host with its port (IPv6 in brackets) while the socket goes to the checked address', async () => {
  const v6 = await startReceiver('/v6', '::1');
  await subscribe(t, 'contact.created', v6.url);
  // receiver.test exists only in this resolver: a second (system) lookup would fail the delivery.
  const named = await startReceiver('/named');
  const byNameSub = await subscribe(t, 'contact.created', named.url);
  await t.db.db
    .updateTable('webhooks')
    .set({ url: `http://receiver.test:${named.port}/named` })
    .where('id', '=', byNameSub.id)
    .execute();
  const resolve = async (host: string) => (host === 'receiver.test' ? [{ address: '127.0.0.1', family: 4 }] : []);
  const client = await createClient(t, 'Contacts Co');
  assert.equal((await t.request('POST', '/contacts', { body: { client_id: client.id, name: 'Jo' } })).status, 201);
  await deliverAll(t, { resolve });
  const [six] = await v6.waitFor(1);
  assert.equal(six!.headers.host, `[::1]:${v6.port}`);
  const [byName] = await named.waitFor(1);
  assert.equal(byName!.headers.host, `receiver.test:${named.port}`);
  assert.equal(byName!.body.event, 'contact.created');
});

test('retries: numbered by attempt, spaced by the ladder, same delivery id, then success', async () => {
  const receiver = await startReceiver();
  receiver.handle((_req, i) => (i < 3 ? { status: 500, body: 'busy' } : { status: 204 }));
  const sub = await subscribe(t, 'task.created', receiver.url);
  await recordRaw(t, 'task.created', 1, { id: 1, title: 'x' });
  await deliverAll(t);
  const got = await receiver.waitFor(4);
  assert.equal(got.length, 4);
  assert.deepEqual(
    got.map((r) => r.headers['x-service-retry-num']),
    [undefined, '2', '3', '4'],
  );
  assert.equal(new Set(got.map((r) => r.headers['x-service-delivery-id'])).size, 1, 'one delivery id across retries');
  assert.equal(new Set(got.map((r) => r.body.id)).size, 1);
  const delays = t.deps.config.webhooks.retryDelaysMs;
  for (let i = 1; i < 4; i++) {
    const gap = got[i]!.at - got[i - 1]!.at;
    assert.ok(gap >= delays[i - 1]! - 5, `retry ${i} came after ${gap} ms, the ladder says ${delays[i - 1]} ms`);
  }
  const rows = await attemptsOf(t, sub.id);
  assert.deepEqual(
    rows.map((r) => [r.attempt, r.status, r.response_status]),
    [
      [1, 'failed', 500],
      [2, 'failed', 500],
      [3, 'failed', 500],
      [4, 'delivered', 204],
    ],
  );
  assert.ok(rows.slice(0, 3).every((r) => r.next_retry_at !== null && r.response_body === 'busy'));
  assert.equal(rows[3].next_retry_at, null);
  const after = await t.request('GET', `/webhooks/${sub.id}`);
  assert.equal(after.body.data.failure_count, 0, 'a success ends the failure streak');
});

test('four attempts in all, then the delivery stops', async () => {
  const receiver = await startReceiver();
  receiver.handle(() => ({ status: 503, body: 'down' }));
  const sub = await subscribe(t, 'project.created', receiver.url);
  await recordRaw(t, 'project.created', 2);
  await deliverAll(t);
  await new Promise((r) => setTimeout(r, 250));
  assert.equal(receiver.received.length, 4);
  const rows = await attemptsOf(t, sub.id);
  assert.deepEqual(
    rows.map((r) => r.attempt),
    [1, 2, 3, 4],
  );
  assert.equal(rows[3].next_retry_at, null);
  const delivery = await t.db.db
    .selectFrom('webhook_deliveries')
    .select('state')
    .where('webhook_id', '=', sub.id)
    .executeTakeFirstOrThrow();
  assert.equal(delivery.state, 'failed');
  assert.equal((await t.request('GET', `/webhooks/${sub.id}`)).body.data.failure_count, 4);
});

test('no retry on 400, 401, 403, 404, 405, 410 and 422; 410 retires the subscription', async () => {
  const codes = [400, 401, 403, 404, 405, 410, 422];
  const receiver = await startReceiver('/');
  receiver.handle((req) => ({ status: Number(req.url.slice(1)), body: `answered ${req.url.slice(1)}` }));
  const subs = new Map<number, number>();
  for (const code of codes) subs.set(code, (await subscribe(t, 'time_entry.created', `${receiver.url}${code}`)).id);
  await recordRaw(t, 'time_entry.created', 3);
  await deliverAll(t);
  await new Promise((r) => setTimeout(r, 250));
  assert.equal(receiver.received.length, codes.length, 'one request per subscription, no retries');
  for (const code of codes) {
    const rows = await attemptsOf(t, subs.get(code)!);
    assert.equal(rows.length, 1, `${code}: one attempt`);
    assert.equal(rows[0].response_status, code);
    assert.equal(rows[0].status, 'failed');
    assert.equal(rows[0].next_retry_at, null);
    assert.equal(rows[0].response_body, `answered ${code}`);
    const sub = (await t.request('GET', `/webhooks/${subs.get(code)}`)).body.data;
    if (code === 410) {
      assert.equal(sub.is_active, false);
      assert.equal(sub.status, 'disabled');
      assert.equal(sub.disabled_reason, 'gone');
      assert.ok(sub.disabled_at);
    } else {
      assert.equal(sub.is_active, true, `${code} does not disable`);
      assert.equal(sub.failure_count, 1);
    }
  }
  const retired = subs.get(410)!;
  const notes = await t.db.db
    .selectFrom('notifications')
    .select(['person_id', 'type'])
    .where('company_id', '=', t.tenant.companyId)
    .where(sql<boolean>`data->>'webhook_id' = ${String(retired)}`)
    .execute();
  assert.deepEqual(
    notes.map((n) => n.type),
    ['webhook_disabled'],
  );
});

test('a redirect answer is recorded and never followed', async () => {
  const target = await startReceiver('/elsewhere');
  const receiver = await startReceiver('/hook');
  receiver.handle(() => ({ status: 302, headers: { location: target.url }, body: 'moved' }));
  const sub = await subscribe(t, 'invoice.created', receiver.url);
  await recordRaw(t, 'invoice.created', 4);
  await deliverAll(t);
  assert.equal(target.received.length, 0, 'the Location was never requested');
  const rows = await attemptsOf(t, sub.id);
  assert.equal(rows.length, 4, 'a 3xx is a failure that is retried');
  assert.ok(rows.every((r) => r.response_status === 302 && r.status === 'failed' && r.response_body === 'moved'));
});

test('response_body keeps the first 2000 characters of the answer', async () => {
  const receiver = await startReceiver();
  const answer = 'é'.repeat(1500) + 'x'.repeat(3500);
  receiver.handle(() => ({ status: 200, body: answer, headers: { 'content-type': 'text/plain; charset=utf-8' } }));
  const sub = await subscribe(t, 'contact.updated', receiver.url);
  await recordRaw(t, 'contact.updated', 5);
  await deliverAll(t);
  const [row] = await attemptsOf(t, sub.id);
  assert.equal(row.response_body.length, 2000);
  assert.equal(row.response_body, answer.slice(0, 2000));
});

test('an answer slower than the time-out is a failure', async () => {
  const receiver = await startReceiver();
  receiver.handle((_req, i) => (i === 0 ? { status: 200, delayMs: 600 } : { status: 200 }));
  const sub = await subscribe(t, 'task.deleted', receiver.url);
  await recordRaw(t, 'task.deleted', 6);
  const config = { ...t.deps.config, webhooks: { ...t.deps.config.webhooks, timeoutMs: 200 } };
  await deliverAll(t, { config });
  const rows = await attemptsOf(t, sub.id);
  assert.equal(rows[0].status, 'failed');
  assert.equal(rows[0].response_status, null);
  assert.match(rows[0].response_body, /^not delivered: timeout: no answer within 0\.2 s$/);
  assert.ok(rows[0].duration_ms >= 190);
  assert.equal(rows[1].status, 'delivered');
});

test('a subscription without a signing secret is refused, nothing is sent', async () => {
  const receiver = await startReceiver();
  const sub = await subscribe(t, 'project.updated', receiver.url);
  await t.db.db.updateTable('webhooks').set({ secret: null }).where('id', '=', sub.id).execute();
  await recordRaw(t, 'project.updated', 7);
  await deliverAll(t);
  assert.equal(receiver.received.length, 0);
  const rows = await attemptsOf(t, sub.id);
  assert.deepEqual(
    rows.map((r) => [r.status, r.response_body, r.response_status]),
    [['refused', 'refused: no signing secret', null]],
  );
});

test('rotate-secret: the next delivery is signed with the new secret only', async () => {
  const receiver = await startReceiver();
  const sub = await subscribe(t, 'client.created', receiver.url);
  const rotated = await t.request('POST', `/webhooks/${sub.id}/rotate-secret`);
  assert.equal(rotated.status, 200, rotated.text);
  const secret = rotated.body.data.secret as string;
  assert.match(secret, /^whsec_/);
  assert.notEqual(secret, sub.secret);
  await createClient(t, 'After Rotation');
  await deliverAll(t);
  const got = receiver.received[0]!;
  const ts = got.headers['x-service-timestamp'] as string;
  assert.ok(verifySignature(got.raw, got.headers['x-service-signature'] as string, ts, secret));
  assert.ok(
    !verifySignature(got.raw, got.headers['x-service-signature'] as string, ts, sub.secret),
    'the old secret stopped at once',
  );
});

test('a failure inside the service is logged with a fixed generic text and retried', async () => {
  const receiver = await startReceiver();
  const sub = await subscribe(t, 'contact.deleted', receiver.url);
  await t.db.db
    .updateTable('webhooks')
    .set({ url: receiver.url.replace('127.0.0.1', 'inside.test') })
    .where('id', '=', sub.id)
    .execute();
  await recordRaw(t, 'contact.deleted', 8);
  let calls = 0;
  // The first answer is garbage that makes the service itself throw; the second is fine.
  const resolve = async () => (++calls === 1 ? (null as never) : [{ address: '127.0.0.1', family: 4 }]);
  await deliverAll(t, { resolve });
  const rows = await attemptsOf(t, sub.id);
  assert.deepEqual(
    rows.map((r) => [r.attempt, r.status]),
    [
      [1, 'error'],
      [2, 'delivered'],
    ],
  );
  assert.equal(rows[0].response_body, 'not delivered: internal error in the delivery service; it will be retried');
  assert.equal(rows[0].response_status, null);
  assert.equal(receiver.received[0]!.headers['x-service-retry-num'], '2');
  assert.ok(
    t.deps.log.lines.some((l) => l.level === 'error' && l.msg === 'webhook delivery failed inside the service'),
    'the detail goes to the log only',
  );
  assert.equal(
    (await t.request('GET', `/webhooks/${sub.id}`)).body.data.failure_count,
    0,
    'not held against the receiver',
  );
});
