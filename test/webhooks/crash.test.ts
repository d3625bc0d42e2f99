import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { startDeliveryWorker } from '../../src/background/webhooks/worker.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { attemptsOf, createClient, deliverAll, pendingCount, recordRaw, subscribe, webhookApp } from './setup.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const t = await webhookApp();
const databaseUrl = t.db.pool.options.connectionString as string;

// A failed assertion must not leave a worker behind: its pipes would keep this file (and the run) alive.
const workers = new Set<ChildProcess>();
after(() => {
  for (const worker of workers) if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
});

/** `npm run worker` as a real process on this test's database. */
function spawnWorker(): ChildProcess & { output: string[] } {
  const child = spawn(process.execPath, ['src/worker.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SVC_WEBHOOK_ALLOW_PRIVATE: 'true',
      SVC_WEBHOOK_RATE: '0',
      SVC_WEBHOOK_CONCURRENCY: '4',
      SVC_WEBHOOK_POLL: '0.05',
      SVC_WEBHOOK_RETRY_DELAYS: '0.05,0.05,0.05',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ChildProcess & { output: string[] };
  workers.add(child);
  child.output = [];
  child.stdout!.on('data', (c) => child.output.push(String(c)));
  child.stderr!.on('data', (c) => child.output.push(String(c)));
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Answers the first `fast` requests at once, then holds every answer until release(). */
function holdAfter(receiver: Receiver, fast: number) {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  receiver.handle(async (_req, i) => {
    if (i >= fast) await gate;
    return { status: 200, body: 'ok' };
  });
  return () => release();
}

test('SIGKILL mid-burst: after a restart every event is delivered at least once, each with its stable id', async () => {
  const receiver = await startReceiver();
  const { id } = await subscribe(t, 'client.created', receiver.url);
  const release = holdAfter(receiver, 30);
  const first = spawnWorker();
  const burst = Array.from({ length: 100 }, (_, i) => `Burst ${i}`);
  for (let i = 0; i < burst.length; i += 10)
    await Promise.all(burst.slice(i, i + 10).map((name) => createClient(t, name)));
  // 30 answered, 4 more (one per loop) claimed and waiting for their answer: kill it now.
  await until(() => receiver.received.length >= 34, 'the first worker to be mid-burst');
  const inFlight = receiver.received.slice(30).map((r) => r.body.id as string);
  first.kill('SIGKILL');
  assert.equal((await exited(first)).signal, 'SIGKILL');
  release();

  const events = await t.db.db
    .selectFrom('events')
    .select('uuid')
    .where('company_id', '=', t.tenant.companyId)
    .where('event', '=', 'client.created')
    .execute();
  assert.equal(events.length, 100);
  const second = spawnWorker();
  try {
    await until(async () => (await pendingCount(t)) === 0, 'the restarted worker to finish');
  } finally {
    second.kill('SIGTERM');
  }
  assert.equal((await exited(second)).code, 0, second.output.join(''));

  const expected = new Set(events.map((e) => e.uuid));
  const seen = new Map<string, number>();
  for (const r of receiver.received) {
    assert.equal(r.headers['x-service-delivery-id'], r.body.id, 'header and body carry the same id');
    assert.ok(expected.has(r.body.id), 'only recorded events are delivered');
    seen.set(r.body.id, (seen.get(r.body.id) ?? 0) + 1);
  }
  assert.deepEqual(
    [...expected].filter((uuid) => !seen.has(uuid)),
    [],
    'no event was lost',
  );
  for (const uuid of inFlight)
    assert.ok(seen.get(uuid)! >= 2, 'an attempt cut by the crash was made again, with the same id');
  const rows = await attemptsOf(t, id);
  assert.equal(rows.length, 100, 'one recorded attempt per event: the cut attempts were never recorded');
  assert.ok(rows.every((r) => r.status === 'delivered' && r.attempt === 1));
  const states = await t.db.db.selectFrom('webhook_deliveries').select('state').where('webhook_id', '=', id).execute();
  assert.ok(states.every((s) => s.state === 'delivered'));
});

test('SIGTERM lets an in-flight attempt finish and record before the worker exits', async () => {
  const receiver = await startReceiver();
  receiver.handle(() => ({ status: 200, body: 'slow but fine', delayMs: 400 }));
  const { id } = await subscribe(t, 'contact.created', receiver.url);
  const worker = spawnWorker();
  const client = await createClient(t, 'Graceful');
  assert.equal((await t.request('POST', '/contacts', { body: { client_id: client.id, name: 'Gil' } })).status, 201);
  // A spawned worker loads every module first: under a loaded CI machine that alone took over 20 s.
  await receiver.waitFor(1, 90_000);
  worker.kill('SIGTERM');
  assert.equal((await exited(worker)).code, 0, worker.output.join(''));
  const rows = await attemptsOf(t, id);
  assert.deepEqual(
    rows.map((r) => [r.status, r.response_body]),
    [['delivered', 'slow but fine']],
  );
  assert.match(worker.output.join(''), /webhook delivery worker stopped/);
});

test('stopping past the grace period releases the attempt to the queue, unrecorded, for the next worker', async () => {
  const receiver = await startReceiver();
  const release = holdAfter(receiver, 0);
  const { id } = await subscribe(t, 'project.created', receiver.url);
  await recordRaw(t, 'project.created', 1);
  const worker = startDeliveryWorker({ db: t.db, config: t.deps.config, log: t.deps.log, shapes: t.deps.shapes });
  await receiver.waitFor(1);
  await worker.stop({ graceMs: 100 });
  release();
  const row = await t.db.db
    .selectFrom('webhook_deliveries')
    .select(['state', 'attempt'])
    .where('webhook_id', '=', id)
    .executeTakeFirstOrThrow();
  assert.deepEqual(row, { state: 'pending', attempt: 1 }, 'back in the queue with its attempt number');
  assert.equal((await attemptsOf(t, id)).length, 0);
  await deliverAll(t);
  const rows = await attemptsOf(t, id);
  assert.deepEqual(
    rows.map((r) => [r.attempt, r.status]),
    [[1, 'delivered']],
  );
  assert.equal(receiver.received.length, 2);
  assert.equal(receiver.received[1]!.body.id, receiver.received[0]!.body.id);
});
