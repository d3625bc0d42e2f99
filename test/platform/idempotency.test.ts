import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type RequestOptions, type Response } from '../helpers.ts';

const t = await createTestApp();
const code = (res: Response) => res.body?.error?.code;
let counter = 0;
const uniqueName = (label: string) => `${label} ${++counter}`;

const post = (path: string, key: string, body: unknown, options: RequestOptions = {}) =>
  t.request('POST', path, { ...options, body, headers: { 'idempotency-key': key, ...options.headers } });

async function countClients(name: string): Promise<number> {
  const row = await t.db.db
    .selectFrom('clients')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function makeClient(): Promise<number> {
  const res = await t.request('POST', '/clients', { body: { name: uniqueName('Owner') } });
  return res.body.data.id;
}

test('a repeat replays the stored response verbatim and does not run again (/clients)', async () => {
  const name = uniqueName('Idem');
  const first = await post('/clients', 'replay-1', { name });
  assert.equal(first.status, 201, first.text);
  assert.equal(first.headers.get('idempotency-replayed'), null);
  const again = await post('/clients', 'replay-1', { name });
  assert.equal(again.status, 201);
  assert.equal(again.text, first.text, 'the body bytes are the same');
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  assert.equal(again.headers.get('content-type'), first.headers.get('content-type'));
  assert.equal(again.headers.get('etag'), first.headers.get('etag'));
  assert.ok(again.headers.get('x-request-id'));
  assert.equal(await countClients(name), 1);
  const stored = await t.db.db
    .selectFrom('idempotency_keys')
    .select(['state', 'response_status', sql<number>`extract(epoch from expires_at - created_at)`.as('lifetime')])
    .where('key', '=', 'replay-1')
    .executeTakeFirstOrThrow();
  assert.deepEqual(
    { ...stored, lifetime: Number(stored.lifetime) },
    { state: 'done', response_status: 201, lifetime: 24 * 3600 },
  );
});

test('a repeat replays verbatim on /contacts too', async () => {
  const clientId = await makeClient();
  const first = await post('/contacts', 'contact-1', { client_id: clientId, name: 'Ann' });
  assert.equal(first.status, 201, first.text);
  const again = await post('/contacts', 'contact-1', { client_id: clientId, name: 'Ann' });
  assert.equal(again.status, 201);
  assert.equal(again.text, first.text);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  const rows = await t.db.db.selectFrom('contacts').select('id').where('client_id', '=', clientId).execute();
  assert.equal(rows.length, 1);
});

test('keys are scoped to the API key: the same key string from another API key runs again', async () => {
  const name = uniqueName('Scoped');
  const admin = await post('/clients', 'shared-key', { name });
  const write = await post('/clients', 'shared-key', { name }, { key: 'write' });
  assert.equal(write.status, 201);
  assert.equal(write.headers.get('idempotency-replayed'), null);
  assert.notEqual(write.body.data.id, admin.body.data.id);
  const other = await t.newTenant();
  const foreign = await post('/clients', 'shared-key', { name }, { tenant: other });
  assert.equal(foreign.status, 201);
  assert.equal(foreign.headers.get('idempotency-replayed'), null);
  assert.equal(await countClients(name), 3);
});

test('errors are never stored: fix the body and retry with the same key', async () => {
  const invalid = await post('/clients', 'fix-me', { name: '' });
  assert.equal(invalid.status, 400);
  const fixed = await post('/clients', 'fix-me', { name: uniqueName('Fixed') });
  assert.equal(fixed.status, 201, fixed.text);
  assert.equal(fixed.headers.get('idempotency-replayed'), null);
  // A rule that fails inside the handler (after the key was claimed) releases the key as well.
  const refused = await post('/contacts', 'fix-contact', { client_id: 999999, name: 'Ann' });
  assert.equal(refused.status, 400);
  assert.equal(code(refused), 'INVALID_CLIENT');
  assert.equal(
    (await t.db.db.selectFrom('idempotency_keys').select('key').where('key', '=', 'fix-contact').execute()).length,
    0,
  );
  const repeated = await post('/contacts', 'fix-contact', { client_id: 999999, name: 'Ann' });
  assert.equal(code(repeated), 'INVALID_CLIENT', 'the error is produced again, not replayed');
  assert.equal(repeated.headers.get('idempotency-replayed'), null);
  const ok = await post('/contacts', 'fix-contact', { client_id: await makeClient(), name: 'Ann' });
  assert.equal(ok.status, 201, ok.text);
});

test('IDEMPOTENCY_KEY_REUSED (409) for another body or another path with the same key', async () => {
  const name = uniqueName('Reused');
  await post('/clients', 'reuse-1', { name });
  const other = await post('/clients', 'reuse-1', { name: `${name} changed` });
  assert.equal(other.status, 409);
  assert.equal(code(other), 'IDEMPOTENCY_KEY_REUSED');
  assert.equal(await countClients(`${name} changed`), 0);
  const otherPath = await post('/contacts', 'reuse-1', { client_id: await makeClient(), name });
  assert.equal(code(otherPath), 'IDEMPOTENCY_KEY_REUSED');
  assert.equal(await countClients(name), 1);
});

test('IDEMPOTENCY_CONFLICT (409) while the first request is still running; exactly one executes', async () => {
  const name = uniqueName('Concurrent');
  let first: Promise<Response> | undefined;
  await t.db.db.transaction().execute(async (tx) => {
    // The first request claims the key, then waits on this lock to insert its client.
    await sql`lock table clients in exclusive mode`.execute(tx);
    first = post('/clients', 'race-1', { name });
    let state: string | undefined;
    for (let i = 0; i < 100 && state !== 'running'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      state = (
        await t.db.db.selectFrom('idempotency_keys').select('state').where('key', '=', 'race-1').executeTakeFirst()
      )?.state;
    }
    assert.equal(state, 'running', 'the first request holds the key while it waits');
    const second = await post('/clients', 'race-1', { name });
    assert.equal(second.status, 409);
    assert.equal(code(second), 'IDEMPOTENCY_CONFLICT');
  });
  const done = await first!;
  assert.equal(done.status, 201, done.text);
  assert.equal(await countClients(name), 1);
  const replay = await post('/clients', 'race-1', { name });
  assert.equal(replay.headers.get('idempotency-replayed'), 'true');
  assert.equal(replay.text, done.text);
});

test('Idempotency-Key longer than 200 characters is 400; 200 is accepted', async () => {
  const name = uniqueName('Long');
  const tooLong = await post('/clients', 'k'.repeat(201), { name });
  assert.equal(tooLong.status, 400);
  assert.equal(code(tooLong), 'VALIDATION_ERROR');
  assert.equal(await countClients(name), 0);
  const longest = await post('/clients', 'k'.repeat(200), { name });
  assert.equal(longest.status, 201);
  assert.equal((await post('/clients', 'k'.repeat(200), { name })).headers.get('idempotency-replayed'), 'true');
});

test('an expired entry runs again', async () => {
  const name = uniqueName('Expired');
  const first = await post('/clients', 'expire-1', { name });
  await t.db.db
    .updateTable('idempotency_keys')
    .set({ expires_at: sql`now() - interval '1 second'` as never })
    .where('key', '=', 'expire-1')
    .execute();
  const again = await post('/clients', 'expire-1', { name });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotency-replayed'), null);
  assert.notEqual(again.body.data.id, first.body.data.id);
  assert.equal(await countClients(name), 2);
  const differentBody = await post('/clients', 'expire-1', { name: `${name} other` });
  assert.equal(code(differentBody), 'IDEMPOTENCY_KEY_REUSED', 'the renewed entry is live again');
});

test('without the header, and on paths not covered, nothing changes', async () => {
  const name = uniqueName('Plain');
  await t.request('POST', '/clients', { body: { name } });
  await t.request('POST', '/clients', { body: { name } });
  assert.equal(await countClients(name), 2);
  const id = await makeClient();
  const patched = await t.request('PATCH', `/clients/${id}`, {
    body: { name: 'P1' },
    headers: { 'idempotency-key': 'patch-1' },
  });
  assert.equal(patched.status, 200);
  const repatched = await t.request('PATCH', `/clients/${id}`, {
    body: { name: 'P2' },
    headers: { 'idempotency-key': 'patch-1' },
  });
  assert.equal(repatched.status, 200);
  assert.equal(repatched.body.data.name, 'P2');
  assert.equal(repatched.headers.get('idempotency-replayed'), null);
  const longKey = await t.request('DELETE', `/clients/${id}`, { headers: { 'idempotency-key': 'k'.repeat(500) } });
  assert.equal(longKey.status, 204, 'the header is ignored, not validated, off the covered paths');
  const stored = await t.db.db
    .selectFrom('idempotency_keys')
    .select('key')
    .where('key', 'in', ['patch-1', 'k'.repeat(500)])
    .execute();
  assert.deepEqual(stored, []);
});
