import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startDeliveryWorker } from '../../src/background/webhooks/worker.ts';
import { startReceiver } from './receiver.ts';
import { recordRaw, subscribe, webhookApp } from './setup.ts';

// Two delivery loops and a 2 s answer time-out (setup.ts): the slow receiver answers just inside it.
const t = await webhookApp();
const SLOW_MS = 1700;

/** Sessions sitting in an open transaction on this test's database (a claim held across an HTTP call). */
async function idleInTransaction(): Promise<number> {
  const row = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
    where datname = current_database() and state like 'idle in transaction%'`.execute(t.db.db);
  return row.rows[0]!.n;
}

test('a company with a slow receiver does not hold back another company, and no transaction spans a call', async () => {
  const slow = await startReceiver();
  slow.handle(() => ({ status: 200, body: 'slow', delayMs: SLOW_MS }));
  for (let i = 0; i < 4; i++) await subscribe(t, 'client.created', slow.url);
  for (let i = 0; i < 10; i++) await recordRaw(t, 'client.created', 1000 + i);

  const other = await t.newTenant({ name: 'Normal Co' });
  const normal = await startReceiver();
  const sub = await t.request('POST', '/webhooks', {
    tenant: other,
    body: { webhook: 'client.created', url: normal.url },
  });
  assert.equal(sub.status, 201, sub.text);

  const worker = startDeliveryWorker({ db: t.db, config: t.deps.config, log: t.deps.log, shapes: t.deps.shapes });
  try {
    // Both loops are now waiting on the slow company's receiver, with 38 more of its deliveries due.
    await slow.waitFor(2);
    assert.equal(await idleInTransaction(), 0, 'no transaction is held while a receiver is being called');

    for (const name of ['N1', 'N2', 'N3']) {
      const res = await t.request('POST', '/clients', { tenant: other, body: { name } });
      assert.equal(res.status, 201, res.text);
    }
    // Counted from the last write: on a loaded machine the writes themselves can take several slow calls.
    const slowBefore = slow.received.length;
    // Counted in slow calls, not milliseconds, so a loaded machine cannot fail it: first-come order would
    // send the slow company's 38 queued deliveries first; fair order serves the normal company at each
    // loop's next claim, so it waits for at most one slow call per loop per delivery. The two loops free
    // at the same moment here (both calls are answered together), so this also checks the tie between
    // companies with nothing in flight: it goes to the one whose last turn lies further back.
    await normal.waitFor(3, 60_000);
    const slowMeanwhile = slow.received.length - slowBefore;
    assert.ok(slowMeanwhile <= 6, `${slowMeanwhile} slow calls went before the normal company's 3 deliveries`);
    assert.deepEqual(normal.received.map((r) => r.body.data.name).sort(), ['N1', 'N2', 'N3']);

    const log = await (async () => {
      for (;;) {
        const res = await t.request('GET', `/webhooks/${sub.body.data.id}/deliveries`, { tenant: other });
        assert.equal(res.status, 200, res.text);
        if (res.body.data.length === 3) return res.body.data;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    assert.ok(log.every((row: any) => row.status === 'delivered' && row.attempt === 1));
    assert.ok(slow.received.length < 40, 'the slow company was still being worked through');
  } finally {
    await worker.stop({ graceMs: 100 });
  }
  // Attempts cut by the stop went back to the queue with their attempt number, unrecorded.
  const states = await t.db.db
    .selectFrom('webhook_deliveries')
    .select(['state', 'attempt'])
    .where('company_id', '=', t.tenant.companyId)
    .execute();
  assert.equal(states.length, 40);
  assert.ok(states.every((s) => s.state === 'delivered' || (s.state === 'pending' && s.attempt === 1)));
  const recorded = await t.db.db
    .selectFrom('webhook_attempts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', t.tenant.companyId)
    .executeTakeFirstOrThrow();
  assert.equal(
    Number(recorded.n),
    states.filter((s) => s.state === 'delivered').length,
    'one attempt row per delivered row',
  );
});
