import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });

/** A fresh member: its member id (the path) and its person id (the agreement's person_id). */
async function newMember(tenant: TenantFixture = t.tenant): Promise<{ memberId: number; personId: number }> {
  const person = await t.db.db
    .insertInto('people')
    .values({ company_id: tenant.companyId, name: 'Member' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const member = await t.db.db
    .insertInto('members')
    .values({ company_id: tenant.companyId, person_id: person.id })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { memberId: member.id, personId: person.id };
}

async function createFor(memberId: number, body: Record<string, unknown>, tenant = t.tenant) {
  const res = await t.request('POST', `/members/${memberId}/agreements`, { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

test('POST takes the person from the path member; a different person_id is refused, the same one accepted', async () => {
  // A spare person first, so member ids and person ids differ and a mix-up would show.
  await t.db.db.insertInto('people').values({ company_id: t.tenant.companyId, name: 'Spare' }).execute();
  const { memberId, personId } = await newMember();
  assert.notEqual(memberId, personId);
  const a = await createFor(memberId, { date_from: '2026-01-01', cost_rate: 25 });
  assert.equal(a.person_id, personId);
  assert.equal(a.cost_rate, 25);
  const same = await createFor(memberId, { date_from: '2027-01-01', person_id: personId });
  assert.equal(same.person_id, personId);
  const mismatch = await t.request('POST', `/members/${memberId}/agreements`, {
    body: { date_from: '2026-01-01', person_id: t.tenant.ownerPersonId },
  });
  assert.equal(mismatch.status, 400);
  assert.equal(mismatch.body.error.details.reason, 'PERSON_MISMATCH');
  const missing = await t.request('POST', `/members/${memberId}/agreements`, { body: {} });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.error.code, 'VALIDATION_ERROR');
});

test('POST on the member route warns on overlap and is idempotent with Idempotency-Key', async () => {
  const { memberId } = await newMember();
  const first = await createFor(memberId, { date_from: '2026-01-01' });
  const headers = { 'idempotency-key': 'member-agreement-1' };
  const body = { date_from: '2026-03-01', date_until: '2026-03-31' };
  const res = await t.request('POST', `/members/${memberId}/agreements`, { body, headers });
  assert.equal(res.status, 201);
  assert.equal(res.body.warnings[0].code, 'AGREEMENT_OVERLAP');
  assert.deepEqual(res.body.warnings[0].details.overlapping_ids, [first.id]);
  const replay = await t.request('POST', `/members/${memberId}/agreements`, { body, headers });
  assert.equal(replay.status, 201);
  assert.equal(replay.headers.get('idempotency-replayed'), 'true');
  assert.deepEqual(replay.body, res.body);
  const list = await t.request('GET', `/members/${memberId}/agreements`);
  assert.equal(list.body.meta.total, 2);
});

test("GET lists only the member's agreements, with the date window filters", async () => {
  const mine = await newMember();
  const theirs = await newMember();
  const a = await createFor(mine.memberId, { date_from: '2020-01-01', date_until: '2020-12-31' });
  const b = await createFor(mine.memberId, { date_from: '2022-01-01' });
  await createFor(theirs.memberId, { date_from: '2020-01-01' });
  const ids = async (query = '') => {
    const res = await t.request('GET', `/members/${mine.memberId}/agreements?limit=200${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((x: { id: number }) => x.id);
  };
  assert.deepEqual(await ids(), [a.id, b.id]);
  assert.deepEqual(await ids('&date_from=2021-01-01'), [b.id]);
  assert.deepEqual(await ids('&date_until=2021-01-01'), [a.id]);
  assert.deepEqual(await ids('&date_from=2020-06-01&date_until=2023-01-01'), [a.id, b.id]);
  const personFilter = await t.request('GET', `/members/${mine.memberId}/agreements?person_id=1`);
  assert.equal(personFilter.status, 400);
  assert.equal(personFilter.body.error.code, 'UNKNOWN_FILTER_FIELD');
  const cursor = await t.request('GET', `/members/${mine.memberId}/agreements?cursor=x`);
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
});

test("GET, PATCH, DELETE through the member: another member's agreement is 404 and unchanged", async () => {
  const mine = await newMember();
  const theirs = await newMember();
  const a = await createFor(mine.memberId, { date_from: '2026-01-01' });
  const foreign = await createFor(theirs.memberId, { date_from: '2026-01-01' });

  const got = await t.request('GET', `/members/${mine.memberId}/agreements/${a.id}`);
  assert.equal(got.status, 200);
  assert.deepEqual(got.body.data, a);
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { cost_rate: 5 }],
    ['PATCH', { cost_rate: 'x' }],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/members/${mine.memberId}/agreements/${foreign.id}`, {
      body,
      headers: { 'if-match': '*' },
    });
    assert.equal(res.status, 404, `${method} ${JSON.stringify(body)}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.equal((await t.request('GET', `/agreements/${foreign.id}`)).body.data.cost_rate, 0);

  const noIfMatch = await t.request('PATCH', `/members/${mine.memberId}/agreements/${a.id}`, {
    body: { cost_rate: 5 },
  });
  assert.equal(noIfMatch.status, 428);
  const stale = await t.request('PATCH', `/members/${mine.memberId}/agreements/${a.id}`, {
    body: { cost_rate: 5 },
    headers: { 'if-match': '"1999-01-01T00:00:00.000Z"' },
  });
  assert.equal(stale.status, 412);
  const patched = await t.request('PATCH', `/members/${mine.memberId}/agreements/${a.id}`, {
    body: { cost_rate: 5.25 },
    headers: { 'if-match': got.headers.get('etag')! },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.cost_rate, 5.25);

  assert.equal((await t.request('DELETE', `/members/${mine.memberId}/agreements/${a.id}`)).status, 428);
  const deleted = await t.request('DELETE', `/members/${mine.memberId}/agreements/${a.id}`, {
    headers: { 'if-match': patched.headers.get('etag')! },
  });
  assert.equal(deleted.status, 204);
  assert.equal((await t.request('GET', `/members/${mine.memberId}/agreements/${a.id}`)).status, 404);
});

test("another company's member, or an absent one, is 404 on every member route whatever the body", async () => {
  const theirs = await newMember(other);
  const mine = await newMember();
  const a = await createFor(mine.memberId, { date_from: '2026-01-01' });
  for (const memberId of [theirs.memberId, 2147483000]) {
    const calls: Array<[string, string, unknown]> = [
      ['GET', `/members/${memberId}/agreements`, undefined],
      ['POST', `/members/${memberId}/agreements`, {}],
      ['POST', `/members/${memberId}/agreements`, { date_from: '2026-01-01' }],
      ['GET', `/members/${memberId}/agreements/${a.id}`, undefined],
      ['PATCH', `/members/${memberId}/agreements/${a.id}`, { cost_rate: 1 }],
      ['DELETE', `/members/${memberId}/agreements/${a.id}`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { body, headers: { 'if-match': '*' } });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.error.code, 'NOT_FOUND');
    }
  }
  const count = await t.db.db
    .selectFrom('agreements')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', other.companyId)
    .executeTakeFirstOrThrow();
  assert.equal(Number(count.n), 0);
  const bad = await t.request('GET', '/members/0/agreements');
  assert.equal(bad.status, 400);
});
