import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createClient, subscribe, webhookApp } from './setup.ts';

const t = await webhookApp();

/**
 * The notices on the delivery workers' channel that a write sends. A marker notified after the write comes
 * back after every notice committed before it (PostgreSQL delivers them in commit order), so what came
 * before the marker is all the write sent.
 */
async function noticesOf(write: () => Promise<unknown>): Promise<string[]> {
  const listener = await t.db.pool.connect();
  const heard: string[] = [];
  try {
    await listener.query('LISTEN webhook_deliveries');
    const marker = new Promise<void>((resolve) =>
      listener.on('notification', (message) => {
        if (message.payload === 'test-marker') resolve();
        else heard.push(message.payload ?? '');
      }),
    );
    await write();
    await t.db.pool.query(`select pg_notify('webhook_deliveries', 'test-marker')`);
    await marker;
    return heard;
  } finally {
    listener.removeAllListeners('notification');
    await listener.query('UNLISTEN webhook_deliveries');
    listener.release();
  }
}

test('a write whose event no subscription wants sends no wake-up notice (notifying commits are serialized)', async () => {
  let id = 0;
  const heard = await noticesOf(async () => {
    id = (await createClient(t, 'Nobody listens')).id;
  });
  assert.ok(id > 0);
  const events = await t.db.db.selectFrom('events').select('event').where('record_id', '=', id).execute();
  assert.deepEqual(
    events.map((e) => e.event),
    ['client.created'],
    'the event is recorded all the same',
  );
  assert.deepEqual(heard, [], 'no NOTIFY in the write');
});

test('a write that queues a delivery wakes the workers once', async () => {
  const hook = await subscribe(t, 'client.created', 'http://127.0.0.1:9/hook');
  const heard = await noticesOf(() => createClient(t, 'Somebody listens'));
  assert.deepEqual(heard, [''], 'one wake-up notice');
  const queued = await t.db.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('webhook_id', '=', hook.id)
    .execute();
  assert.equal(queued.length, 1);
});
