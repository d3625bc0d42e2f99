import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.ts';
import { openDatabase } from '../../src/db/database.ts';
import { createTestApp } from '../helpers.ts';

// Two instances of the service on one database, as behind a load balancer: each keeps its own key cache.
const t = await createTestApp();
const otherDb = openDatabase(t.app.config.databaseUrl!, { max: 4 });
const other = await buildApp({ config: { ...t.app.config, logLevel: 'warn' }, db: otherDb });
const otherUrl = await other.listen({ port: 0, host: '127.0.0.1' });
test.after(async () => {
  await other.close();
  await otherDb.close();
});

async function onOther(key: string, path = '/api/v3/clients?limit=1', companyId = t.tenant.companyId) {
  const response = await fetch(`${otherUrl}${path}`, {
    headers: { 'x-service-company': companyId, 'x-api-key': key },
  });
  return { status: response.status, body: (await response.json()) as any };
}

const listening = async () => {
  for (let i = 0; i < 100; i++) {
    const rows = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
      where application_name = 'service-api-listen' and datname = current_database() and (query ilike 'LISTEN%' or query ilike '%pg_notify%')`.execute(
      t.db.db,
    );
    if (rows.rows[0]!.n >= 2) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the key caches never started listening');
};

async function newKey(scopes = ['read']) {
  const created = await t.request('POST', '/auth/keys', { body: { name: 'cached', scopes } });
  assert.equal(created.status, 201, created.text);
  return created.body.data as { id: number; full_key: string };
}

test('a key revoked through one instance is refused by the other on its very next request', async () => {
  await listening();
  const key = await newKey();
  assert.equal((await onOther(key.full_key)).status, 200);
  assert.equal((await onOther(key.full_key)).status, 200, 'served from the cache the second time');
  assert.equal((await t.request('DELETE', `/auth/keys/${key.id}`)).status, 204);
  const after = await onOther(key.full_key);
  assert.equal(after.status, 401);
  assert.equal(after.body.error.code, 'UNAUTHORIZED');
});

test('the cache really answers: a change made with the triggers off goes unseen until the next notice', async () => {
  await listening();
  const key = await newKey();
  // The key's creation is a notice of its own, which may reach the other instance after its first lookup and
  // evict what that cached; a hit waits at the fence until it has been heard, so the second answer stays.
  assert.equal((await onOther(key.full_key)).status, 200);
  assert.equal((await onOther(key.full_key)).status, 200);
  await t.db.db.transaction().execute(async (tx) => {
    await sql`set local session_replication_role = replica`.execute(tx);
    await tx.updateTable('api_keys').set({ is_active: false }).where('id', '=', key.id).execute();
  });
  assert.equal((await onOther(key.full_key)).status, 200, 'answered from the cache');
  // Any notified change to the company's keys evicts them all.
  await t.db.db
    .updateTable('api_keys')
    .set({ scopes: ['read'] })
    .where('id', '=', key.id)
    .execute();
  assert.equal((await onOther(key.full_key)).status, 401);
});

test('a member deactivated, a plan lost or a key expired: the cached key follows at once', async () => {
  await listening();
  const key = await newKey();
  assert.equal((await onOther(key.full_key)).status, 200);
  await t.db.db
    .updateTable('api_keys')
    .set({ expires_at: sql`now() - interval '1 second'` })
    .where('id', '=', key.id)
    .execute();
  assert.equal((await onOther(key.full_key)).body.error.code, 'UNAUTHORIZED');

  const second = await newKey();
  assert.equal((await onOther(second.full_key)).status, 200);
  await t.db.db.updateTable('companies').set({ plan: 'basic' }).where('id', '=', t.tenant.companyId).execute();
  const refused = await onOther(second.full_key);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'PLAN_UPGRADE_REQUIRED');
  await t.db.db.updateTable('companies').set({ plan: 'pro' }).where('id', '=', t.tenant.companyId).execute();
  assert.equal((await onOther(second.full_key)).status, 200);

  await t.db.db
    .updateTable('members')
    .set({ status: 'inactive' })
    .where('company_id', '=', t.tenant.companyId)
    .where('person_id', '=', t.tenant.memberPersonId)
    .execute();
  const personal = await onOther(t.tenant.keys.personal);
  assert.equal(personal.status, 401);
  await t.db.db
    .updateTable('members')
    .set({ status: 'active' })
    .where('company_id', '=', t.tenant.companyId)
    .where('person_id', '=', t.tenant.memberPersonId)
    .execute();
});

test('when the change listener is lost the cache stops answering, and revocation still holds', async () => {
  await listening();
  const key = await newKey();
  assert.equal((await onOther(key.full_key)).status, 200);
  await sql`select pg_terminate_backend(pid) from pg_stat_activity
    where application_name = 'service-api-listen' and datname = current_database()`.execute(t.db.db);
  // The processes notice the lost connection within milliseconds (and reconnect only after a second).
  await new Promise((r) => setTimeout(r, 200));
  // Revoked straight in the database while nobody listens: only a cache that is off can notice.
  await t.db.db
    .updateTable('api_keys')
    .set({ is_active: false, revoked_at: sql`now()` })
    .where('id', '=', key.id)
    .execute();
  assert.equal((await onOther(key.full_key)).status, 401);
  await listening();
  const fresh = await newKey();
  assert.equal((await onOther(fresh.full_key)).status, 200);
  assert.equal((await onOther(key.full_key)).status, 401);
});

test('last_used_at is still recorded for a key answered from the cache', async () => {
  await listening();
  const key = await newKey();
  assert.equal((await onOther(key.full_key)).status, 200);
  const row = await t.db.db
    .selectFrom('api_keys')
    .select('last_used_at')
    .where('id', '=', key.id)
    .executeTakeFirstOrThrow();
  assert.ok(row.last_used_at, 'last_used_at set on first use');
});

test('the fence: right after a commit elsewhere, a hit waits until the notice of that commit has been heard', async () => {
  const { KeyCache, listenForAuthChanges } = await import('../../src/platform/key-cache.ts');
  const cache = new KeyCache<string>();
  const listener = listenForAuthChanges(otherDb.pool.options, cache, () => {});
  try {
    for (let i = 0; i < 100 && !cache.enabled; i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(cache.enabled, 'listening');
    let unheardRightAfterCommit = 0;
    for (let round = 0; round < 50; round++) {
      const company = `fence-${round}`;
      cache.set(company, 'hash', 'row', cache.generation(company));
      await sql`select pg_notify('svc_auth', ${company})`.execute(t.db.db);
      if (cache.generation(company) === 0) unheardRightAfterCommit++;
      assert.equal(await cache.getFresh(company, 'hash'), undefined, `round ${round}: evicted before the hit answers`);
      assert.equal(cache.generation(company), 1);
    }
    // Not asserted (timing), but it is why the fence exists: usually the notice is still on its way here.
    console.log(`notices not yet heard right after their commit: ${unheardRightAfterCommit} of 50`);
  } finally {
    await listener.close();
  }
});
