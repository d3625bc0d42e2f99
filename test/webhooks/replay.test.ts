import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drainOnce } from '../../src/background/webhooks/engine.ts';
import { startReceiver } from './receiver.ts';
import { attemptsOf, createClient, deliverAll, subscribe, webhookApp } from './setup.ts';

const t = await webhookApp({ SVC_WEBHOOK_RETRY_DELAYS: '0.3,0.05,0.05' });

test('replay: 409 DELIVERY_IN_PROGRESS while retries run, then the same event is sent again with the same id', async () => {
  const receiver = await startReceiver();
  receiver.handle(() => ({ status: 500, body: 'not yet' }));
  const { id } = await subscribe(t, 'client.created', receiver.url);
  await createClient(t, 'Replayed');
  await drainOnce(t.deps);
  assert.equal(receiver.received.length, 1, 'first attempt made; its retry is scheduled');
  const eventId = receiver.received[0]!.body.id as string;

  const busy = await t.request('POST', `/webhooks/${id}/deliveries/${eventId}/replay`);
  assert.equal(busy.status, 409, busy.text);
  assert.equal(busy.body.error.code, 'DELIVERY_IN_PROGRESS');
  assert.equal(busy.body.error.details.event_id, eventId);

  await deliverAll(t);
  assert.equal(receiver.received.length, 4, 'the ladder ran out');
  receiver.handle(() => ({ status: 200, body: 'thanks' }));
  const replay = await t.request('POST', `/webhooks/${id}/deliveries/${eventId.toUpperCase()}/replay`);
  assert.equal(replay.status, 202, replay.text);
  assert.deepEqual(
    { ...replay.body.data, queued_at: undefined },
    { webhook_id: id, event_id: eventId, status: 'queued', queued_at: undefined },
  );
  assert.match(replay.body.data.queued_at, /Z$/);
  const again = await t.request('POST', `/webhooks/${id}/deliveries/${eventId}/replay`);
  assert.equal(again.status, 409, 'a queued replay is in progress too');
  await deliverAll(t);
  const sent = receiver.received[4]!;
  assert.equal(sent.body.id, eventId, 'same body id');
  assert.equal(sent.headers['x-service-delivery-id'], eventId);
  assert.equal(sent.headers['x-service-retry-num'], undefined, 'a replay starts at attempt 1');
  assert.deepEqual(sent.body.data, receiver.received[0]!.body.data);
  const rows = await attemptsOf(t, id);
  assert.deepEqual(
    rows.map((r) => [r.attempt, r.status, r.replay]),
    [
      [1, 'failed', false],
      [2, 'failed', false],
      [3, 'failed', false],
      [4, 'failed', false],
      [1, 'delivered', true],
    ],
  );
  const filtered = await t.request('GET', `/webhooks/${id}/deliveries?event_id=${eventId}&status=delivered`);
  assert.equal(filtered.body.meta.total, 1);
  assert.equal(filtered.body.data[0].response_body, 'thanks');
});

test('replay with an Idempotency-Key is queued once and answered again verbatim', async () => {
  const receiver = await startReceiver();
  const { id } = await subscribe(t, 'client.updated', receiver.url);
  const client = await createClient(t, 'Idem');
  await t.request('PATCH', `/clients/${client.id}`, { body: { name: 'Idem 2' } });
  await deliverAll(t);
  const eventId = receiver.received[0]!.body.id as string;
  const headers = { 'idempotency-key': `replay-${eventId}` };
  const first = await t.request('POST', `/webhooks/${id}/deliveries/${eventId}/replay`, { headers });
  assert.equal(first.status, 202, first.text);
  const second = await t.request('POST', `/webhooks/${id}/deliveries/${eventId}/replay`, { headers });
  assert.equal(second.status, 202);
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.deepEqual(second.body, first.body);
  const queued = await t.db.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('webhook_id', '=', id)
    .where('replay', '=', true)
    .execute();
  assert.equal(queued.length, 1);
});

test('replay answers 404 for an unknown event, an event never sent to this subscription, or another tenant', async () => {
  const receiver = await startReceiver();
  const a = await subscribe(t, 'contact.created', receiver.url);
  const b = await subscribe(t, 'client.deleted', receiver.url);
  const client = await createClient(t, 'Mixed');
  assert.equal((await t.request('POST', '/contacts', { body: { client_id: client.id, name: 'Kim' } })).status, 201);
  await deliverAll(t);
  const eventId = receiver.received.find((r) => r.body.event === 'contact.created')!.body.id as string;
  const unknown = await t.request('POST', `/webhooks/${a.id}/deliveries/00000000-0000-4000-8000-000000000000/replay`);
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error.code, 'NOT_FOUND');
  assert.equal(
    (await t.request('POST', `/webhooks/${b.id}/deliveries/${eventId}/replay`)).status,
    404,
    'never delivered to b',
  );
  assert.equal((await t.request('POST', `/webhooks/999999/deliveries/${eventId}/replay`)).status, 404);
  const other = await t.newTenant();
  assert.equal(
    (await t.request('POST', `/webhooks/${a.id}/deliveries/${eventId}/replay`, { tenant: other })).status,
    404,
  );
  const malformed = await t.request('POST', `/webhooks/${a.id}/deliveries/not-a-uuid/replay`);
  assert.equal(malformed.status, 400);
  assert.equal(malformed.body.error.code, 'VALIDATION_ERROR');
});
