import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';
import { inTransaction, type Ctx } from '../../src/platform/context.ts';
import { recordEvents } from '../../src/platform/events.ts';
import { systemActor } from '../../src/platform/system-actor.ts';

// Background work (jobs, the billing run) writes through inTransaction like a request: its events are held
// back to the transaction's last statement.
const t = await createTestApp();
const actor = await systemActor(t.db.db, t.tenant.companyId);
assert.ok(actor);
const ctx: Ctx = { ...actor, db: t.db.db, requestId: 'side-records-test' };

const storedEvents = (from: number, db: Ctx['db'] = t.db.db) =>
  db
    .selectFrom('events')
    .select(['id', 'record_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('event', '=', 'client.created')
    .where('record_id', '>=', from)
    .orderBy('id')
    .execute();

test('thousands of events in one transaction are all written, in the order they were recorded', async () => {
  const from = 1_000_000;
  const records = Array.from({ length: 2500 }, (_, i) => ({ id: from + i, name: `Client ${i}` }));
  await inTransaction(ctx, async (tx) => {
    await recordEvents(tx, 'client', 'created', records.slice(0, 1200));
    await recordEvents(tx, 'client', 'created', records.slice(1200));
    assert.equal((await storedEvents(from, tx.db)).length, 0, 'held back, even from the transaction itself');
  });
  const stored = await storedEvents(from);
  assert.equal(stored.length, 2500);
  assert.deepEqual(
    stored.map((e) => e.record_id),
    records.map((r) => r.id),
    'ids follow the order of recording',
  );
});

test('a transaction that fails writes none of the events it held back', async () => {
  const from = 2_000_000;
  await assert.rejects(
    inTransaction(ctx, async (tx) => {
      await recordEvents(tx, 'client', 'created', [{ id: from, name: 'Never' }]);
      throw new Error('the work failed');
    }),
    /the work failed/,
  );
  assert.deepEqual(await storedEvents(from), []);
});
