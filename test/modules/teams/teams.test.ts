import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();
const { ownerPersonId: owner, memberPersonId: member } = t.tenant;

async function createTeam(body: Record<string, unknown>, tenant?: TenantFixture): Promise<number> {
  const res = await t.request('POST', '/teams', { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const storedTeam = (id: number, companyId = t.tenant.companyId) =>
  t.db.db.selectFrom('teams').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();

const storedMembers = async (id: number) =>
  (
    await t.db.db
      .selectFrom('team_members')
      .select('person_id')
      .where('team_id', '=', id)
      .orderBy('person_id')
      .execute()
  ).map((r) => r.person_id);

const countTeams = async () =>
  (
    await t.db.db
      .selectFrom('teams')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;

test('create, read, list, update and delete a team; a stable resource without X-Api-Preview', async () => {
  const created = await t.request('POST', '/teams', {
    key: 'write',
    body: { name: 'Payroll', description: 'Monthly payroll runs', member_ids: [member, owner], lead_id: owner },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('x-api-preview'), null);
  const team = created.body.data;
  assert.deepEqual(Object.keys(team).sort(), [
    'created_at',
    'description',
    'id',
    'lead_id',
    'member_ids',
    'name',
    'updated_at',
  ]);
  assert.equal(team.name, 'Payroll');
  assert.equal(team.description, 'Monthly payroll runs');
  assert.equal(team.lead_id, owner);
  assert.deepEqual(
    team.member_ids,
    [owner, member].sort((a, b) => a - b),
  );
  assert.equal(created.headers.get('etag'), `"${team.updated_at}"`);
  assert.equal((await storedTeam(team.id))?.lead_id, owner);
  assert.deepEqual(await storedMembers(team.id), team.member_ids);

  const read = await t.request('GET', `/teams/${team.id}`, { key: 'read' });
  assert.equal(read.status, 200);
  assert.equal(read.headers.get('x-api-preview'), null);
  assert.deepEqual(read.body.data, team);

  const listed = await t.request('GET', '/teams?q=payr', { key: 'read' });
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.body.data, [team]);
  assert.deepEqual(listed.body.meta, { total: 1, limit: 50, offset: 0, has_more: false });

  // Fields left out keep their values; member_ids replaces the whole list.
  const renamed = await t.request('PATCH', `/teams/${team.id}`, { key: 'write', body: { name: 'Payroll and HR' } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.deepEqual(renamed.body.data.member_ids, team.member_ids);
  assert.equal(renamed.body.data.lead_id, owner);
  assert.ok(renamed.body.data.updated_at > team.updated_at);
  const replaced = await t.request('PATCH', `/teams/${team.id}`, {
    body: { member_ids: [member], lead_id: null, description: null },
  });
  assert.equal(replaced.status, 200, replaced.text);
  assert.deepEqual(replaced.body.data.member_ids, [member]);
  assert.equal(replaced.body.data.lead_id, null);
  assert.equal(replaced.body.data.description, null);
  assert.deepEqual(await storedMembers(team.id), [member]);
  const emptied = await t.request('PATCH', `/teams/${team.id}`, { body: { member_ids: [] } });
  assert.deepEqual(emptied.body.data.member_ids, []);
  assert.deepEqual(await storedMembers(team.id), []);
  const unchanged = await t.request('PATCH', `/teams/${team.id}`, { body: {} });
  assert.deepEqual(unchanged.body.data, emptied.body.data);

  const deleted = await t.request('DELETE', `/teams/${team.id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.text, '');
  assert.notEqual((await storedTeam(team.id))?.deleted_at, null);
  assert.equal((await t.request('GET', `/teams/${team.id}`)).body.error.code, 'NOT_FOUND');
  assert.equal((await t.request('PATCH', `/teams/${team.id}`, { body: { name: 'x' } })).status, 404);
  assert.equal((await t.request('DELETE', `/teams/${team.id}`)).status, 404);
  assert.deepEqual((await t.request('GET', '/teams?q=Payroll')).body.data, []);
});

test('defaults: a team needs only a name', async () => {
  const res = await t.request('POST', '/teams', { body: { name: 'Bare' } });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.data.description, null);
  assert.equal(res.body.data.lead_id, null);
  assert.deepEqual(res.body.data.member_ids, []);
});

test('persons that are not of this company are refused with 400 INVALID_PERSON and nothing is written', async () => {
  const other = await t.newTenant({ name: 'Other Co' });
  const before = await countTeams();
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['unknown lead', { name: 'T', lead_id: 999999 }, 'lead_id'],
    ["another tenant's lead", { name: 'T', lead_id: other.ownerPersonId }, 'lead_id'],
    ["another tenant's member", { name: 'T', member_ids: [member, other.memberPersonId] }, 'member_ids'],
    ['unknown member', { name: 'T', member_ids: [999999] }, 'member_ids'],
  ];
  for (const [why, body, field] of cases) {
    const res = await t.request('POST', '/teams', { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'INVALID_PERSON', why);
    assert.equal(res.body.error.details.field, field, why);
  }
  assert.deepEqual((await t.request('POST', '/teams', { body: cases[2]![1] })).body.error.details.invalid_ids, [
    other.memberPersonId,
  ]);
  assert.equal(await countTeams(), before);

  const id = await createTeam({ name: 'Kept', member_ids: [owner], lead_id: owner });
  const stored = await storedTeam(id);
  for (const [why, body] of cases) {
    const res = await t.request('PATCH', `/teams/${id}`, { body: { ...body, name: 'Changed' } });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'INVALID_PERSON', why);
  }
  assert.deepEqual(await storedTeam(id), stored);
  assert.deepEqual(await storedMembers(id), [owner]);
});

const badBodies: Array<[string, Record<string, unknown>, string]> = [
  ['empty name', { name: '' }, 'name'],
  ['256-character name', { name: 'x'.repeat(256) }, 'name'],
  ['repeated member', { name: 'T', member_ids: [1, 1] }, 'member_ids'],
  ['member id as text', { name: 'T', member_ids: ['1'] }, 'member_ids'],
  ['member id zero', { name: 'T', member_ids: [0] }, 'member_ids'],
  ['member_ids not a list', { name: 'T', member_ids: 5 }, 'member_ids'],
  ['lead id as text', { name: 'T', lead_id: '1' }, 'lead_id'],
  ['description too long', { name: 'T', description: 'd'.repeat(5001) }, 'description'],
  ['unknown field', { name: 'T', members: [1] }, 'members'],
];

test('create and update refuse invalid bodies with 400 VALIDATION_ERROR and store nothing', async () => {
  const before = await countTeams();
  for (const [why, body, field] of [...badBodies, ['missing name', { member_ids: [] }, 'name'] as const]) {
    const res = await t.request('POST', '/teams', { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
    assert.ok(JSON.stringify(res.body.error.details.errors).includes(field), `${why}: ${res.text}`);
  }
  assert.equal(await countTeams(), before);
  const id = await createTeam({ name: 'Steady' });
  const stored = await storedTeam(id);
  for (const [why, body] of badBodies) {
    const res = await t.request('PATCH', `/teams/${id}`, { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
  }
  assert.deepEqual(await storedTeam(id), stored);
});

test('the list: q filter, sort, offset-only (cursor refused), unknown filters refused', async () => {
  const tenant = await t.newTenant({ name: 'Sorted Co' });
  for (const name of ['Charlie team', 'Alpha team', 'Bravo team', 'Other']) await createTeam({ name }, tenant);
  const byName = await t.request('GET', '/teams?q=team&sort=name', { tenant, key: 'read' });
  assert.equal(byName.status, 200, byName.text);
  assert.deepEqual(
    byName.body.data.map((x: { name: string }) => x.name),
    ['Alpha team', 'Bravo team', 'Charlie team'],
  );
  assert.deepEqual(byName.body.meta, { total: 3, limit: 50, offset: 0, has_more: false });
  const desc = await t.request('GET', '/teams?sort=-name&limit=2', { tenant });
  assert.deepEqual(
    desc.body.data.map((x: { name: string }) => x.name),
    ['Other', 'Charlie team'],
  );
  assert.equal(desc.body.meta.has_more, true);
  assert.equal('next_cursor' in desc.body.meta, false);
  const byId = await t.request('GET', '/teams', { tenant });
  assert.deepEqual(
    byId.body.data.map((x: { name: string }) => x.name),
    ['Charlie team', 'Alpha team', 'Bravo team', 'Other'],
  );

  const cursor = await t.request('GET', '/teams?cursor=abc.def', { tenant });
  assert.equal(cursor.status, 400);
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
  const unknown = await t.request('GET', '/teams?lead_id=1', { tenant });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
  const badSort = await t.request('GET', '/teams?sort=description', { tenant });
  assert.equal(badSort.status, 400);
  assert.equal(badSort.body.error.code, 'VALIDATION_ERROR');
  const longQ = await t.request('GET', `/teams?q=${'q'.repeat(256)}`, { tenant });
  assert.equal(longQ.status, 422);
  assert.equal(longQ.body.error.code, 'INVALID_FILTER_VALUE');
});

test("another tenant's team answers 404 on GET, PATCH and DELETE and stays untouched", async () => {
  const other = await t.newTenant({ name: 'Their Co' });
  const foreign = await createTeam({ name: 'Their team', member_ids: [other.memberPersonId] }, other);
  const before = await storedTeam(foreign, other.companyId);
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { member_ids: [] }],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/teams/${foreign}`, { body });
    assert.equal(res.status, 404, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.deepEqual(await storedTeam(foreign, other.companyId), before);
  assert.deepEqual(await storedMembers(foreign), [other.memberPersonId]);
  assert.deepEqual((await t.request('GET', '/teams?q=Their')).body.data, []);
});

test("a read key cannot write (403 FORBIDDEN); personal keys see the company's teams, only an owner's writes them", async () => {
  const id = await createTeam({ name: 'Guarded', member_ids: [owner] });
  const before = await storedTeam(id);
  const total = await countTeams();
  const attempts = [
    ['POST', '/teams', { name: 'Nope' }],
    ['PATCH', `/teams/${id}`, { name: 'Nope' }],
    ['DELETE', `/teams/${id}`, undefined],
  ] as const;
  for (const [method, path, body] of attempts) {
    const res = await t.request(method, path, { key: 'read', body });
    assert.equal(res.status, 403, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.required_scope, 'write');
  }
  assert.deepEqual(await storedTeam(id), before);
  assert.equal(await countTeams(), total);
  for (const key of ['personal', 'personalAdmin'] as const) {
    const read = await t.request('GET', `/teams/${id}`, { key });
    assert.equal(read.status, 200, read.text);
    assert.ok((await t.request('GET', '/teams?q=Guarded', { key })).body.data.some((x: { id: number }) => x.id === id));
  }
  // Teams are company configuration: a plain member cannot create one, nor make themselves its lead.
  const memberAttempts = [
    ['POST', '/teams', { name: 'My own team', member_ids: [member], lead_id: member }],
    ['PATCH', `/teams/${id}`, { lead_id: member, member_ids: [owner, member] }],
    ['DELETE', `/teams/${id}`, undefined],
  ] as const;
  for (const [method, path, body] of memberAttempts) {
    const res = await t.request(method, path, { key: 'personal', body });
    assert.equal(res.status, 403, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.required_role, 'owner or admin');
  }
  assert.deepEqual(await storedTeam(id), before);
  assert.deepEqual(await storedMembers(id), [owner]);
  assert.equal(await countTeams(), total);
  const made = await t.request('POST', '/teams', {
    key: 'personalAdmin',
    body: { name: 'Made by the owner', member_ids: [owner, member] },
  });
  assert.equal(made.status, 201, made.text);
});

test('Idempotency-Key on POST /teams replays the stored answer and creates one team', async () => {
  const body = { name: 'Idempotent team', member_ids: [member] };
  const headers = { 'idempotency-key': 'team-create-1' };
  const first = await t.request('POST', '/teams', { body, headers });
  assert.equal(first.status, 201, first.text);
  const again = await t.request('POST', '/teams', { body, headers });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  assert.equal(again.text, first.text);
  const rows = await t.db.db.selectFrom('teams').select('id').where('name', '=', 'Idempotent team').execute();
  assert.deepEqual(rows, [{ id: first.body.data.id }]);
});
