import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();

async function createGroup(body: Record<string, unknown>, tenant?: TenantFixture): Promise<number> {
  const res = await t.request('POST', '/client-groups', { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

async function createClient(body: Record<string, unknown>): Promise<number> {
  const res = await t.request('POST', '/clients', { body });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const storedGroup = (id: number, companyId = t.tenant.companyId) =>
  t.db.db
    .selectFrom('client_groups')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();

const storedLinks = (groupId: number) =>
  t.db.db
    .selectFrom('client_group_links')
    .select('client_id')
    .where('company_id', '=', t.tenant.companyId)
    .where('group_id', '=', groupId)
    .orderBy('client_id')
    .execute();

test('create, read, list, update and delete a client group', async () => {
  const created = await t.request('POST', '/client-groups', {
    key: 'write',
    body: { name: 'Alpha key accounts', color: '#1a2B3c' },
  });
  assert.equal(created.status, 201, created.text);
  const group = created.body.data;
  assert.deepEqual(Object.keys(group).sort(), ['color', 'created_at', 'id', 'name', 'status', 'updated_at']);
  assert.equal(group.name, 'Alpha key accounts');
  assert.equal(group.color, '#1a2B3c');
  assert.equal(group.status, 'active');
  assert.match(group.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(created.headers.get('etag'), `"${group.updated_at}"`);
  const row = await storedGroup(group.id);
  assert.equal(row?.name, 'Alpha key accounts');
  assert.equal(row?.status, 'active');
  assert.equal(row?.color, '#1a2B3c');
  assert.equal(row?.deleted_at, null);

  const read = await t.request('GET', `/client-groups/${group.id}`, { key: 'read' });
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body.data, group);

  const listed = await t.request('GET', '/client-groups?status=active,inactive&q=ALPHA%20key', { key: 'read' });
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.body.data, [group]);
  assert.deepEqual(listed.body.meta, { total: 1, limit: 50, offset: 0, has_more: false, next_cursor: null });

  const patched = await t.request('PATCH', `/client-groups/${group.id}`, {
    key: 'write',
    body: { status: 'inactive', color: null, name: 'Alpha (old)' },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.status, 'inactive');
  assert.equal(patched.body.data.color, null);
  assert.equal(patched.body.data.name, 'Alpha (old)');
  assert.ok(patched.body.data.updated_at > group.updated_at);
  assert.equal(patched.body.data.created_at, group.created_at);
  const afterPatch = await storedGroup(group.id);
  assert.equal(afterPatch?.status, 'inactive');
  assert.equal(afterPatch?.color, null);
  assert.equal(afterPatch?.name, 'Alpha (old)');

  const unchanged = await t.request('PATCH', `/client-groups/${group.id}`, { body: {} });
  assert.equal(unchanged.status, 200);
  assert.deepEqual(unchanged.body.data, patched.body.data);

  assert.deepEqual((await t.request('GET', '/client-groups?status=active&q=Alpha')).body.data, []);
  assert.equal((await t.request('GET', '/client-groups?status=inactive&q=Alpha')).body.data[0].id, group.id);

  const deleted = await t.request('DELETE', `/client-groups/${group.id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.text, '');
  assert.notEqual((await storedGroup(group.id))?.deleted_at, null);
  const gone = await t.request('GET', `/client-groups/${group.id}`);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'NOT_FOUND');
  assert.equal((await t.request('PATCH', `/client-groups/${group.id}`, { body: { name: 'x' } })).status, 404);
  assert.equal((await t.request('DELETE', `/client-groups/${group.id}`)).status, 404);
  assert.deepEqual((await t.request('GET', '/client-groups?q=Alpha')).body.data, []);
});

test('status can be set on create; an explicit null colour is stored as null', async () => {
  const res = await t.request('POST', '/client-groups', { body: { name: 'Dormant', status: 'inactive', color: null } });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.data.status, 'inactive');
  assert.equal(res.body.data.color, null);
  assert.equal((await storedGroup(res.body.data.id))?.status, 'inactive');
});

const badBodies: Array<[string, Record<string, unknown>, string]> = [
  ['empty name', { name: '' }, 'name'],
  ['256-character name', { name: 'x'.repeat(256) }, 'name'],
  ['colour without #', { name: 'G', color: '1a2b3c' }, 'color'],
  ['colour by name', { name: 'G', color: 'red' }, 'color'],
  ['short colour', { name: 'G', color: '#12345' }, 'color'],
  ['unknown status', { name: 'G', status: 'archived' }, 'status'],
  ['unknown field', { name: 'G', position: 3 }, 'position'],
  ['name of the wrong type', { name: 42 }, 'name'],
];

test('create refuses invalid bodies with 400 VALIDATION_ERROR and stores nothing', async () => {
  const before = await t.db.db
    .selectFrom('client_groups')
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  for (const [why, body, field] of [...badBodies, ['missing name', { color: '#000000' }, 'name'] as const]) {
    const res = await t.request('POST', '/client-groups', { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
    assert.ok(JSON.stringify(res.body.error.details.errors).includes(field), `${why}: ${res.text}`);
  }
  const after = await t.db.db
    .selectFrom('client_groups')
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(after.n, before.n);
});

test('update refuses invalid bodies with 400 VALIDATION_ERROR and changes nothing', async () => {
  const id = await createGroup({ name: 'Stable', color: '#abcdef' });
  const before = await storedGroup(id);
  for (const [why, body] of badBodies) {
    const res = await t.request('PATCH', `/client-groups/${id}`, { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
  }
  assert.deepEqual(await storedGroup(id), before);
  const badId = await t.request('GET', '/client-groups/abc');
  assert.equal(badId.status, 400);
  assert.equal(badId.body.error.code, 'VALIDATION_ERROR');
});

test('list query errors: bad filter value 422, unknown parameter 400, bad sort 400, bad cursor 400', async () => {
  const badStatus = await t.request('GET', '/client-groups?status=bogus', { key: 'read' });
  assert.equal(badStatus.status, 422, badStatus.text);
  assert.equal(badStatus.body.error.code, 'INVALID_FILTER_VALUE');
  assert.equal(badStatus.body.error.details.field, 'status');
  const mixed = await t.request('GET', '/client-groups?status=active,prospect');
  assert.equal(mixed.status, 422);
  assert.equal(mixed.body.error.code, 'INVALID_FILTER_VALUE');
  const unknown = await t.request('GET', '/client-groups?colour=red');
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
  assert.equal(unknown.body.error.details.field, 'colour');
  const badSort = await t.request('GET', '/client-groups?sort=color');
  assert.equal(badSort.status, 400);
  assert.equal(badSort.body.error.code, 'VALIDATION_ERROR');
  const badCursor = await t.request('GET', '/client-groups?cursor=not-a-cursor');
  assert.equal(badCursor.status, 400);
  assert.equal(badCursor.body.error.code, 'INVALID_CURSOR');
});

test('cursor pagination walks every page once, in order', async () => {
  const ids: number[] = [];
  for (const name of ['Pager E', 'Pager B', 'Pager D', 'Pager A', 'Pager C']) ids.push(await createGroup({ name }));
  const first = await t.request('GET', '/client-groups?q=Pager&limit=2&sort=-name', { key: 'read' });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.body.meta.total, 5);
  assert.equal(first.body.meta.has_more, true);
  const names: string[] = first.body.data.map((g: { name: string }) => g.name);
  let cursor: string | null = first.body.meta.next_cursor;
  let pages = 1;
  while (cursor) {
    const page = await t.request('GET', `/client-groups?limit=2&cursor=${encodeURIComponent(cursor)}`, { key: 'read' });
    assert.equal(page.status, 200, page.text);
    assert.equal(page.body.meta.total, undefined, 'cursor pages carry no total');
    assert.equal(page.body.meta.limit, 2);
    names.push(...page.body.data.map((g: { name: string }) => g.name));
    cursor = page.body.meta.next_cursor;
    assert.equal(page.body.meta.has_more, cursor !== null);
    pages++;
  }
  assert.equal(pages, 3);
  assert.deepEqual(names, ['Pager E', 'Pager D', 'Pager C', 'Pager B', 'Pager A']);
  const changed = await t.request(
    'GET',
    `/client-groups?q=Other&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`,
  );
  assert.equal(changed.status, 400);
  assert.equal(changed.body.error.code, 'INVALID_CURSOR');
});

test('DELETE is refused with 409 GROUP_IN_USE while an active client belongs to the group', async () => {
  const group = await createGroup({ name: 'In use' });
  const other = await createGroup({ name: 'Bystander' });
  const first = await createClient({ name: 'Member one', groups: [group, other] });
  const second = await createClient({ name: 'Member two', groups: [group] });
  await createClient({ name: 'Prospect member', status: 'prospect', groups: [group] });

  const refused = await t.request('DELETE', `/client-groups/${group}`, { key: 'write' });
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.body.error.code, 'GROUP_IN_USE');
  assert.deepEqual(refused.body.error.details, { active_clients: 2 });
  assert.equal((await storedGroup(group))?.deleted_at, null);
  assert.equal((await storedLinks(group)).length, 3);

  assert.equal((await t.request('PATCH', `/clients/${first}`, { body: { status: 'inactive' } })).status, 200);
  const stillOne = await t.request('DELETE', `/client-groups/${group}`);
  assert.equal(stillOne.status, 409);
  assert.deepEqual(stillOne.body.error.details, { active_clients: 1 });

  assert.equal((await t.request('DELETE', `/clients/${second}`)).status, 204);
  const before = (await t.request('GET', `/clients/${first}`)).body.data;
  const deleted = await t.request('DELETE', `/client-groups/${group}`);
  assert.equal(deleted.status, 204, deleted.text);
  assert.notEqual((await storedGroup(group))?.deleted_at, null);
  assert.deepEqual(await storedLinks(group), []);
  assert.equal((await storedLinks(other)).length, 1, 'links to other groups are kept');

  const client = await t.request('GET', `/clients/${first}`);
  assert.deepEqual(client.body.data.groups, [other]);
  assert.ok(client.body.data.updated_at > before.updated_at, 'the client whose groups changed has a new version');
  const events = await t.db.db
    .selectFrom('events')
    .select(['event', 'data'])
    .where('company_id', '=', t.tenant.companyId)
    .where('record_id', '=', first)
    .where('event', '=', 'client.updated')
    .orderBy('id', 'desc')
    .execute();
  assert.deepEqual((events[0]?.data as { groups: number[] }).groups, [other]);
});

test('a group whose only active client was deleted can be deleted; the client keeps no link', async () => {
  const group = await createGroup({ name: 'Short-lived' });
  const client = await createClient({ name: 'Leaving', groups: [group] });
  assert.equal((await t.request('DELETE', `/client-groups/${group}`)).status, 409);
  assert.equal((await t.request('DELETE', `/clients/${client}`)).status, 204);
  assert.equal((await t.request('DELETE', `/client-groups/${group}`)).status, 204);
  assert.deepEqual(await storedLinks(group), []);
});

test("a client cannot reference another tenant's or a deleted group: 400 VALIDATION_ERROR INVALID_GROUP", async () => {
  const other = await t.newTenant({ name: 'Other Co' });
  const foreign = await createGroup({ name: 'Foreign' }, other);
  const res = await t.request('POST', '/clients', { body: { name: 'Sneaky', groups: [foreign] } });
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  assert.equal(res.body.error.details.reason, 'INVALID_GROUP');
  assert.deepEqual(res.body.error.details.invalid_ids, [foreign]);
  const stored = await t.db.db
    .selectFrom('clients')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('name', '=', 'Sneaky')
    .execute();
  assert.deepEqual(stored, []);

  const removed = await createGroup({ name: 'Removed' });
  assert.equal((await t.request('DELETE', `/client-groups/${removed}`)).status, 204);
  const client = await createClient({ name: 'Honest' });
  const patch = await t.request('PATCH', `/clients/${client}`, { body: { groups: [removed] } });
  assert.equal(patch.status, 400);
  assert.equal(patch.body.error.details.reason, 'INVALID_GROUP');
});

test("another tenant's group answers 404 on GET, PATCH and DELETE and stays untouched", async () => {
  const other = await t.newTenant({ name: 'Neighbour Co' });
  const foreign = await createGroup({ name: 'Theirs' }, other);
  const before = await storedGroup(foreign, other.companyId);
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { name: 'Mine now' }],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/client-groups/${foreign}`, { body });
    assert.equal(res.status, 404, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.deepEqual(await storedGroup(foreign, other.companyId), before);
  const list = await t.request('GET', '/client-groups?q=Theirs');
  assert.deepEqual(list.body.data, []);
});

test('a read key cannot write: 403 FORBIDDEN naming the write scope', async () => {
  const id = await createGroup({ name: 'Read-only view' });
  const before = await storedGroup(id);
  const attempts = [
    ['POST', '/client-groups', { name: 'Nope' }],
    ['PATCH', `/client-groups/${id}`, { name: 'Nope' }],
    ['DELETE', `/client-groups/${id}`, undefined],
  ] as const;
  for (const [method, path, body] of attempts) {
    const res = await t.request(method, path, { key: 'read', body });
    assert.equal(res.status, 403, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.required_scope, 'write');
  }
  assert.deepEqual(await storedGroup(id), before);
  const nope = await t.db.db.selectFrom('client_groups').select('id').where('name', '=', 'Nope').execute();
  assert.deepEqual(nope, []);
});

test('Idempotency-Key on POST /client-groups replays the first answer; another body is refused; a running one conflicts', async () => {
  const body = { name: 'Once only', color: '#00ff00' };
  const headers = { 'idempotency-key': 'cg-create-1' };
  const first = await t.request('POST', '/client-groups', { body, headers });
  assert.equal(first.status, 201, first.text);
  const again = await t.request('POST', '/client-groups', { body, headers });
  assert.equal(again.status, 201);
  assert.equal(again.text, first.text);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  const rows = await t.db.db
    .selectFrom('client_groups')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('name', '=', 'Once only')
    .execute();
  assert.equal(rows.length, 1);

  const reused = await t.request('POST', '/client-groups', { body: { name: 'Something else' }, headers });
  assert.equal(reused.status, 409);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');

  // A first request still running is stood in for by its claimed row.
  const runningBody = { name: 'In flight' };
  await t.db.db
    .insertInto('idempotency_keys')
    .values({
      company_id: t.tenant.companyId,
      api_key_id: t.tenant.keyIds.admin,
      key: 'cg-running',
      state: 'running',
      request_hash: createHash('sha256')
        .update(`POST /api/v3/client-groups\n${JSON.stringify(runningBody)}`)
        .digest('hex'),
      expires_at: sql`now() + interval '1 hour'` as never,
    } as never)
    .execute();
  const running = await t.request('POST', '/client-groups', {
    body: runningBody,
    headers: { 'idempotency-key': 'cg-running' },
  });
  assert.equal(running.status, 409, running.text);
  assert.equal(running.body.error.code, 'IDEMPOTENCY_CONFLICT');
  assert.deepEqual(
    await t.db.db.selectFrom('client_groups').select('id').where('name', '=', 'In flight').execute(),
    [],
  );
});
