// The legacy v1.0 engine inside the running delivery workers: a web-made client is delivered without anyone
// draining by hand (the worker is woken on v3's channel), and two workers, as two instances would, make each
// attempt once (docs/decisions/0054).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startDeliveryWorker } from '../../src/background/webhooks/worker.ts';
import { as, sessionFor } from '../support/sessions.ts';
import { startReceiver } from './receiver.ts';
import { webhookApp } from './setup.ts';
import { legacyRows, subscribeV1 } from './legacy-setup.ts';

const t = await webhookApp();
const owner = await sessionFor(t, { personId: t.tenant.ownerPersonId });
const startWorker = () =>
  startDeliveryWorker({ db: t.db, config: t.deps.config, log: t.deps.log, shapes: t.deps.shapes });

async function webClient(name: string): Promise<number> {
  const res = await t.request('POST', '/clients', { ...as(owner), body: { name } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

test('two running workers deliver every web-made client to v1.0 exactly once, woken without a hand drain', async () => {
  const receiver = await startReceiver('/v1');
  // A receiver slower than a claim, so both workers are busy at once and would double up without the claim.
  receiver.handle(() => ({ status: 200, body: 'ok', delayMs: 30 }));
  await subscribeV1(t, 'client_added', receiver.url);
  const workers = [startWorker(), startWorker()];
  try {
    const first = await webClient('Woken Ltd');
    const [got] = await receiver.waitFor(1);
    assert.equal(got!.body.id, first, 'delivered by a running worker, woken by the write');
    const ids = [first];
    for (let i = 0; i < 20; i++) ids.push(await webClient(`Burst ${i}`));
    await receiver.waitFor(ids.length);
    for (let i = 0; i < 50 && (await legacyRows(t)).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(await legacyRows(t), [], 'nothing left queued');
    await new Promise((r) => setTimeout(r, 200));
    const delivered = receiver.received.map((r) => r.body.id as number);
    assert.equal(delivered.length, ids.length, `each client once: ${delivered.join(',')}`);
    assert.deepEqual(
      [...delivered].sort((a, b) => a - b),
      [...ids].sort((a, b) => a - b),
    );
  } finally {
    await Promise.all(workers.map((w) => w.stop({ graceMs: 1000 })));
  }
});
