import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp } from '../../helpers.ts';
import { createClient, createRole, eventCount, insertMember, storedMembers, waitForJob } from './fixtures.ts';
import { runJobsOnce as runJobs } from '../../../src/modules/jobs/index.ts';
import { loadModules } from '../../../src/modules/index.ts';
import { MEMBER_CHUNK } from '../../../src/modules/client-workflow/client-workflow.bulk.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other bulk co' });
const bulk = (body: unknown, key = 'write', headers?: Record<string, string>) =>
  t.request('POST', '/clients/bulk-member-action', { body, key, headers });
const jobCount = async () =>
  (await t.db.db.selectFrom('jobs').select('id').where('company_id', '=', t.tenant.companyId).execute()).length;

async function run(body: Record<string, unknown>, key = 'write') {
  const res = await bulk(body, key);
  assert.equal(res.status, 202, res.text);
  assert.equal(res.body.data.type, 'client_bulk_member_action');
  return waitForJob(t, res.body.data.id, key === 'personal' ? 'personal' : 'admin');
}

test('add, replace and remove a member across clients as background jobs that fire no events', async () => {
  const clients = [(await createClient(t)).id, (await createClient(t)).id, (await createClient(t)).id];
  const [role, other_role] = [await createRole(t, 'Lead'), await createRole(t, 'Helper')];
  const newcomer = await insertMember(t);
  const me = t.tenant.memberPersonId;
  const events = await eventCount(t);

  const added = await run({ action: 'add', person_id: me, workflow_role_id: role, client_ids: clients });
  assert.deepEqual(
    [added.status, added.total_count, added.processed_count, added.failed_count, added.failed_client_ids],
    ['finished', 3, 3, 0, null],
  );
  for (const id of clients) assert.deepEqual(await storedMembers(t, id), [[me, role]]);
  // Adding again with another role changes the role, not the membership count.
  await run({ action: 'add', person_id: me, workflow_role_id: other_role, client_ids: [clients[0]] });
  assert.deepEqual(await storedMembers(t, clients[0]!), [[me, other_role]]);

  // replace only where the replaced person is a member; the newcomer takes over the role.
  await t.db.db
    .updateTable('client_members')
    .set({ deleted_at: sql`now()` })
    .where('company_id', '=', t.tenant.companyId)
    .where('client_id', '=', clients[2]!)
    .execute();
  const replaced = await run({ action: 'replace', from_person_id: me, person_id: newcomer, client_ids: clients });
  assert.equal(replaced.processed_count, 3);
  assert.deepEqual(await storedMembers(t, clients[0]!), [[newcomer, other_role]]);
  assert.deepEqual(await storedMembers(t, clients[1]!), [[newcomer, role]]);
  assert.deepEqual(await storedMembers(t, clients[2]!), [], 'not a member there: nobody replaced');

  const removed = await run({ action: 'remove', person_id: newcomer, client_ids: clients });
  assert.equal(removed.status, 'finished');
  for (const id of clients) assert.deepEqual(await storedMembers(t, id), []);
  assert.equal(await eventCount(t), events, 'bulk member actions fire no events');
  const stored = await t.db.db
    .selectFrom('jobs')
    .select(['api_key_id', 'target_ids'])
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', removed.id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.api_key_id, t.tenant.keyIds.write);
  assert.deepEqual(stored.target_ids, clients);
});

test('bad bulk bodies are refused before any job is queued', async () => {
  const client = (await createClient(t)).id;
  const foreign = (await createClient(t, {}, other)).id;
  const foreignRole = await createRole(t, 'Foreign', other);
  const inactive = await insertMember(t, 'inactive');
  const me = t.tenant.memberPersonId;
  const before = await jobCount();
  const cases: Array<[unknown, string, string?]> = [
    [{ action: 'add', person_id: me }, 'VALIDATION_ERROR'],
    [{ action: 'add', person_id: me, client_ids: [] }, 'VALIDATION_ERROR'],
    [{ action: 'add', person_id: me, client_ids: [client, client] }, 'VALIDATION_ERROR'],
    [{ action: 'add', person_id: me, client_ids: Array.from({ length: 1001 }, (_, i) => i + 1) }, 'VALIDATION_ERROR'],
    [{ action: 'merge', person_id: me, client_ids: [client] }, 'VALIDATION_ERROR'],
    [{ action: 'add', person_id: 'me', client_ids: [client] }, 'VALIDATION_ERROR'],
    [{ action: 'add', person_id: me, client_ids: [client], note: 'x' }, 'VALIDATION_ERROR'],
    [{ action: 'replace', person_id: me, client_ids: [client] }, 'VALIDATION_ERROR', 'MISSING_FIELD'],
    [
      { action: 'add', from_person_id: me, person_id: me, client_ids: [client] },
      'VALIDATION_ERROR',
      'FIELD_NOT_ALLOWED',
    ],
    [
      { action: 'remove', person_id: me, workflow_role_id: null, client_ids: [client] },
      'VALIDATION_ERROR',
      'FIELD_NOT_ALLOWED',
    ],
    [{ action: 'replace', from_person_id: me, person_id: me, client_ids: [client] }, 'VALIDATION_ERROR', 'SAME_PERSON'],
    [{ action: 'add', person_id: me, client_ids: [client, foreign] }, 'INVALID_CLIENT'],
    [{ action: 'add', person_id: other.memberPersonId, client_ids: [client] }, 'INVALID_PERSON'],
    [{ action: 'add', person_id: inactive, client_ids: [client] }, 'INVALID_PERSON'],
    [{ action: 'replace', from_person_id: other.ownerPersonId, person_id: me, client_ids: [client] }, 'INVALID_PERSON'],
    [{ action: 'add', person_id: me, workflow_role_id: foreignRole, client_ids: [client] }, 'INVALID_WORKFLOW_ROLE'],
  ];
  for (const [body, code, reason] of cases) {
    const res = await bulk(body);
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 100)}: ${res.text}`);
    assert.equal(res.body.error.code, code);
    if (reason) assert.equal(res.body.error.details.reason, reason);
  }
  const invalid = await bulk({ action: 'add', person_id: me, client_ids: [client, foreign] });
  assert.deepEqual(invalid.body.error.details.invalid_ids, [foreign]);
  assert.equal((await bulk({ action: 'add', person_id: me, client_ids: [client] }, 'read')).status, 403);
  assert.equal(await jobCount(), before);
  // An inactive member can still be removed from clients (the usual reason to remove someone).
  const removed = await run({ action: 'remove', person_id: inactive, client_ids: [client] });
  assert.equal(removed.status, 'finished');
});

test("a plain member's bulk action only names clients they see", async () => {
  const mine = (await createClient(t, { default_person_id: t.tenant.memberPersonId })).id;
  const hidden = (await createClient(t)).id;
  const refused = await bulk(
    { action: 'add', person_id: t.tenant.ownerPersonId, client_ids: [mine, hidden] },
    'personal',
  );
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.body.error.code, 'INVALID_CLIENT');
  const job = await run({ action: 'add', person_id: t.tenant.ownerPersonId, client_ids: [mine] }, 'personal');
  assert.equal(job.processed_count, 1);
  assert.deepEqual(await storedMembers(t, mine), [[t.tenant.ownerPersonId, null]]);
});

test('the bulk member action accepts an Idempotency-Key: a retry replays the same job', async () => {
  const client = (await createClient(t)).id;
  const headers = { 'idempotency-key': 'members-1' };
  const body = { action: 'add', person_id: t.tenant.ownerPersonId, client_ids: [client] };
  const first = await bulk(body, 'write', headers);
  assert.equal(first.status, 202, first.text);
  const second = await bulk(body, 'write', headers);
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.deepEqual(second.body, first.body);
  await waitForJob(t, first.body.data.id);
  const reused = await bulk({ ...body, action: 'remove' }, 'write', headers);
  assert.equal(reused.status, 409, reused.text);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  assert.deepEqual(await storedMembers(t, client), [[t.tenant.ownerPersonId, null]]);
});

test('a job whose process died is resumed after its last committed chunk and applies no client twice', async () => {
  const company_id = t.tenant.companyId;
  const count = MEMBER_CHUNK + 10;
  const ids = (
    await t.db.db
      .insertInto('clients')
      .values(Array.from({ length: count }, (_, i) => ({ company_id, name: `Resume ${i}` })) as never)
      .returning('id')
      .execute()
  ).map((r) => r.id);
  const person = t.tenant.memberPersonId;
  // The dead process had committed the first chunk; those clients are left without the membership here, to
  // show the resumed job does not go over them again.
  const job = await t.db.db
    .insertInto('jobs')
    .values({
      company_id,
      type: 'client_bulk_member_action',
      params: JSON.stringify({ action: 'add', person_id: person, client_ids: ids }),
      api_key_id: t.tenant.keyIds.admin,
      status: 'running',
      target_ids: ids,
      total_count: count,
      processed_count: MEMBER_CHUNK,
      failed_count: 0,
      started_at: '2026-01-01T10:00:00.000Z',
      heartbeat_at: sql`now() - interval '5 minutes'`,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const ran = await runJobs(t.db.db, loadModules().jobs);
  assert.ok(ran.includes(job.id));
  const done = await waitForJob(t, job.id);
  assert.deepEqual(
    [done.status, done.total_count, done.processed_count, done.failed_count],
    ['finished', count, count, 0],
  );
  for (const id of ids.slice(0, MEMBER_CHUNK)) assert.deepEqual(await storedMembers(t, id), []);
  for (const id of ids.slice(MEMBER_CHUNK)) assert.deepEqual(await storedMembers(t, id), [[person, null]]);
});

test('replace: a newcomer already on the client keeps its role unless the replaced member had one or one is sent', async () => {
  const [roleless, roled, sent] = [(await createClient(t)).id, (await createClient(t)).id, (await createClient(t)).id];
  const [mine, theirs, given] = [
    await createRole(t, 'Mine'),
    await createRole(t, 'Theirs'),
    await createRole(t, 'Given'),
  ];
  const leaver = await insertMember(t);
  const newcomer = await insertMember(t);
  await run({ action: 'add', person_id: newcomer, workflow_role_id: mine, client_ids: [roleless, roled, sent] });
  await run({ action: 'add', person_id: leaver, client_ids: [roleless] });
  await run({ action: 'add', person_id: leaver, workflow_role_id: theirs, client_ids: [roled, sent] });
  await run({ action: 'replace', from_person_id: leaver, person_id: newcomer, client_ids: [roleless, roled] });
  await run({
    action: 'replace',
    from_person_id: leaver,
    person_id: newcomer,
    workflow_role_id: given,
    client_ids: [sent],
  });
  assert.deepEqual(await storedMembers(t, roleless), [[newcomer, mine]]);
  assert.deepEqual(await storedMembers(t, roled), [[newcomer, theirs]]);
  assert.deepEqual(await storedMembers(t, sent), [[newcomer, given]]);
});

test('a failing chunk is counted in failed_count and the job still finishes', async () => {
  const clients = [(await createClient(t)).id, (await createClient(t)).id];
  // A job row as a request would queue it, with a person the API's validation would have refused.
  const job = await t.db.db
    .insertInto('jobs')
    .values({
      company_id: t.tenant.companyId,
      type: 'client_bulk_member_action',
      params: JSON.stringify({ action: 'add', person_id: 999_999, client_ids: clients }),
      api_key_id: t.tenant.keyIds.admin,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await runJobs(t.db.db, loadModules().jobs);
  const done = await waitForJob(t, job.id);
  assert.deepEqual([done.status, done.total_count, done.processed_count, done.failed_count], ['finished', 2, 2, 2]);
  for (const id of clients) assert.deepEqual(await storedMembers(t, id), []);
});
