import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';
import { addMember } from '../../../src/modules/companies/companies.service.ts';

const t = await createTestApp();

async function createClient(name: string, tenant?: TenantFixture): Promise<number> {
  const res = await t.request('POST', '/clients', { body: { name }, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

async function createMembership(body: Record<string, unknown>, key = 'admin'): Promise<number> {
  const res = await t.request('POST', '/client-members', { key, body });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const stored = (id: number, companyId = t.tenant.companyId) =>
  t.db.db
    .selectFrom('client_members')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();
const liveCount = async () =>
  (
    await t.db.db
      .selectFrom('client_members')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('company_id', '=', t.tenant.companyId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow()
  ).n;

const extra = await addMember(t.db.db, t.tenant.companyId, {
  name: 'Erin',
  surname: 'Extra',
  email: 'erin@test.example',
  role: 'member',
  status: 'active',
});
const owner = t.tenant.ownerPersonId;
const member = t.tenant.memberPersonId;

test('create, read, list, update and delete a client member; preview header on every answer', async () => {
  const client = await createClient('Members Inc');
  const created = await t.request('POST', '/client-members', {
    key: 'write',
    body: { client_id: client, person_id: extra.person_id, role: 'account manager' },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('x-api-preview'), 'true');
  const cm = created.body.data;
  assert.deepEqual(Object.keys(cm).sort(), [
    'client_id',
    'created_at',
    'id',
    'person_id',
    'role',
    'updated_at',
    'workflow_role_id',
  ]);
  assert.equal(cm.role, 'account manager');
  assert.equal(cm.workflow_role_id, null);
  assert.equal((await stored(cm.id))?.person_id, extra.person_id);

  const read = await t.request('GET', `/client-members/${cm.id}`, { key: 'write' });
  assert.equal(read.status, 200);
  assert.equal(read.headers.get('x-api-preview'), 'true');
  assert.deepEqual(read.body.data, cm);
  const list = await t.request('GET', `/client-members?client_id=${client}`);
  assert.equal(list.status, 200, list.text);
  assert.equal(list.headers.get('x-api-preview'), 'true');
  assert.deepEqual(list.body.data, [cm]);
  assert.deepEqual(list.body.meta, { total: 1, limit: 50, offset: 0, has_more: false });

  const patched = await t.request('PATCH', `/client-members/${cm.id}`, { key: 'write', body: { role: null } });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.role, null);
  assert.ok(patched.body.data.updated_at > cm.updated_at);
  assert.equal((await stored(cm.id))?.role, null);
  const same = await t.request('PATCH', `/client-members/${cm.id}`, { body: {} });
  assert.deepEqual(same.body.data, patched.body.data);

  const deleted = await t.request('DELETE', `/client-members/${cm.id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.headers.get('x-api-preview'), 'true');
  assert.notEqual((await stored(cm.id))?.deleted_at, null);
  const gone = await t.request('GET', `/client-members/${cm.id}`);
  assert.equal(gone.status, 404);
  assert.equal(gone.headers.get('x-api-preview'), 'true');
  assert.equal((await t.request('PATCH', `/client-members/${cm.id}`, { body: { role: 'x' } })).status, 404);
  assert.equal((await t.request('DELETE', `/client-members/${cm.id}`)).status, 404);
  const again = await t.request('POST', '/client-members', { body: { client_id: client, person_id: extra.person_id } });
  assert.equal(again.status, 201, 'a removed membership can be made again');
});

test('list filters client_id, person_id, role, workflow_role_id; bad filter value 422; offset-only', async () => {
  const c1 = await createClient('Filter one');
  const c2 = await createClient('Filter two');
  const a = await createMembership({ client_id: c1, person_id: owner, role: 'lead' });
  const b = await createMembership({ client_id: c1, person_id: extra.person_id, role: 'support' });
  const c = await createMembership({ client_id: c2, person_id: extra.person_id, role: 'lead' });
  const ids = async (query: string) => {
    const res = await t.request('GET', `/client-members?${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((m: { id: number }) => m.id);
  };
  assert.deepEqual(await ids(`client_id=${c1}`), [a, b]);
  assert.deepEqual(await ids(`person_id=${extra.person_id}&role=lead`), [c]);
  assert.deepEqual(await ids(`role=lead&sort=-id`), [c, a]);
  assert.deepEqual(await ids('workflow_role_id=424242'), []);
  const bad = await t.request('GET', '/client-members?client_id=abc');
  assert.equal(bad.status, 422);
  assert.equal(bad.body.error.code, 'INVALID_FILTER_VALUE');
  const cursor = await t.request('GET', '/client-members?cursor=xyz');
  assert.equal(cursor.status, 400);
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
});

test('409 CLIENT_MEMBER_EXISTS for a second live row of the same client and person, on create and on update', async () => {
  const client = await createClient('Duplicates');
  const other = await createClient('Elsewhere');
  const first = await createMembership({ client_id: client, person_id: owner });
  const n = await liveCount();
  const dup = await t.request('POST', '/client-members', {
    body: { client_id: client, person_id: owner, role: 'again' },
  });
  assert.equal(dup.status, 409, dup.text);
  assert.equal(dup.body.error.code, 'CLIENT_MEMBER_EXISTS');
  assert.deepEqual(dup.body.error.details, { client_id: client, person_id: owner, client_member_id: first });
  assert.equal(dup.headers.get('x-api-preview'), 'true');
  assert.equal(await liveCount(), n);
  const second = await createMembership({ client_id: other, person_id: owner });
  const before = await stored(second);
  const moved = await t.request('PATCH', `/client-members/${second}`, { body: { client_id: client } });
  assert.equal(moved.status, 409);
  assert.equal(moved.body.error.code, 'CLIENT_MEMBER_EXISTS');
  assert.deepEqual(await stored(second), before);
  const ok = await t.request('PATCH', `/client-members/${second}`, {
    body: { client_id: other, person_id: owner, role: 'same pair' },
  });
  assert.equal(ok.status, 200, 're-sending its own pair is not a duplicate');
});

test('INVALID_CLIENT, INVALID_PERSON, INVALID_WORKFLOW_ROLE and validation errors; nothing written', async () => {
  const other = await t.newTenant({ name: 'Other Co' });
  const foreignClient = await createClient('Foreign', other);
  const client = await createClient('Valid');
  const deletedClient = await createClient('Deleted');
  assert.equal((await t.request('DELETE', `/clients/${deletedClient}`)).status, 204);
  const id = await createMembership({ client_id: client, person_id: owner });
  const before = await stored(id);
  const n = await liveCount();
  const refs: Array<[Record<string, unknown>, string, string]> = [
    [{ client_id: foreignClient }, 'INVALID_CLIENT', 'client_id'],
    [{ client_id: deletedClient }, 'INVALID_CLIENT', 'client_id'],
    [{ person_id: other.ownerPersonId }, 'INVALID_PERSON', 'person_id'],
    [{ person_id: 999999 }, 'INVALID_PERSON', 'person_id'],
    [{ workflow_role_id: 999999 }, 'INVALID_WORKFLOW_ROLE', 'workflow_role_id'],
  ];
  for (const [body, code, field] of refs) {
    const created = await t.request('POST', '/client-members', {
      body: { client_id: client, person_id: extra.person_id, ...body },
    });
    assert.equal(created.status, 400, created.text);
    assert.equal(created.body.error.code, code);
    assert.equal(created.body.error.details.field, field);
    const patched = await t.request('PATCH', `/client-members/${id}`, { body });
    assert.equal(patched.status, 400, patched.text);
    assert.equal(patched.body.error.code, code);
  }
  for (const body of [
    { client_id: client },
    { person_id: owner },
    { client_id: client, person_id: owner, role: 'x'.repeat(256) },
    { client_id: client, person_id: owner, status: 'active' },
    { client_id: null, person_id: owner },
  ]) {
    const res = await t.request('POST', '/client-members', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  assert.equal(
    (await t.request('PATCH', `/client-members/${id}`, { body: { person_id: null } })).body.error.code,
    'VALIDATION_ERROR',
  );
  assert.equal(await liveCount(), n);
  assert.deepEqual(await stored(id), before);
});

test("another tenant's membership is 404; the read key is refused (write scope, reads included)", async () => {
  const other = await t.newTenant({ name: 'Neighbour Co' });
  const theirClient = await createClient('Theirs', other);
  const theirs = await t.request('POST', '/client-members', {
    tenant: other,
    body: { client_id: theirClient, person_id: other.memberPersonId },
  });
  assert.equal(theirs.status, 201);
  const before = await stored(theirs.body.data.id, other.companyId);
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { role: 'mine' }],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/client-members/${theirs.body.data.id}`, { body });
    assert.equal(res.status, 404, method);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.deepEqual(await stored(theirs.body.data.id, other.companyId), before);
  assert.deepEqual((await t.request('GET', `/client-members?client_id=${theirClient}`)).body.data, []);
  for (const [method, path] of [
    ['GET', '/client-members'],
    ['GET', `/client-members/${theirs.body.data.id}`],
    ['POST', '/client-members'],
  ] as const) {
    const res = await t.request(method, path, {
      key: 'read',
      body: method === 'POST' ? { client_id: 1, person_id: 1 } : undefined,
    });
    assert.equal(res.status, 403, `${method} ${path}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.headers.get('x-api-preview'), 'true');
  }
});

test('visibility: a member sees and manages memberships of the clients they belong to only', async () => {
  const theirs = await createClient('Member sees');
  const hidden = await createClient('Member does not see');
  const own = await createMembership({ client_id: theirs, person_id: member });
  const colleague = await createMembership({ client_id: theirs, person_id: extra.person_id });
  const hiddenRow = await createMembership({ client_id: hidden, person_id: extra.person_id });
  const ids = async (key: string) =>
    (await t.request('GET', `/client-members?person_id=${extra.person_id}`, { key })).body.data.map(
      (m: { id: number }) => m.id,
    );
  assert.ok((await ids('personal')).includes(colleague));
  assert.ok(!(await ids('personal')).includes(hiddenRow));
  assert.ok((await ids('personalAdmin')).includes(hiddenRow));
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { role: 'x' }],
    ['DELETE', undefined],
  ] as const) {
    assert.equal(
      (await t.request(method, `/client-members/${hiddenRow}`, { key: 'personal', body })).status,
      404,
      method,
    );
  }
  const addHidden = await t.request('POST', '/client-members', {
    key: 'personal',
    body: { client_id: hidden, person_id: member },
  });
  assert.equal(addHidden.status, 400);
  assert.equal(addHidden.body.error.code, 'INVALID_CLIENT');
  const addOwner = await t.request('POST', '/client-members', {
    key: 'personal',
    body: { client_id: theirs, person_id: owner, role: 'sponsor' },
  });
  assert.equal(addOwner.status, 201, addOwner.text);
  const moveOut = await t.request('PATCH', `/client-members/${colleague}`, {
    key: 'personal',
    body: { client_id: hidden },
  });
  assert.equal(moveOut.status, 400);
  assert.equal(moveOut.body.error.code, 'INVALID_CLIENT');
  // Leaving the client takes it (and its memberships) out of the member's sight.
  assert.equal((await t.request('DELETE', `/client-members/${own}`, { key: 'personal' })).status, 204);
  assert.equal((await t.request('GET', `/client-members/${colleague}`, { key: 'personal' })).status, 404);
  assert.equal((await t.request('GET', `/clients/${theirs}`, { key: 'personal' })).status, 404);
  assert.equal((await t.request('GET', `/client-members/${colleague}`, { key: 'personalAdmin' })).status, 200);
});

test('memberships of a deleted client disappear from reads', async () => {
  const client = await createClient('Short-lived');
  const id = await createMembership({ client_id: client, person_id: extra.person_id });
  assert.equal((await t.request('DELETE', `/clients/${client}`)).status, 204);
  assert.equal((await t.request('GET', `/client-members/${id}`)).status, 404);
  assert.deepEqual((await t.request('GET', `/client-members?client_id=${client}`)).body.data, []);
});

test("workflow_role_id: a live workflow role of the company is stored and filterable; another tenant's or a deleted one is INVALID_WORKFLOW_ROLE", async () => {
  const other = await t.newTenant({ name: 'Role Co' });
  const role = async (companyId: string, deleted = false) =>
    (
      await t.db.db
        .insertInto('workflow_roles')
        .values({
          company_id: companyId,
          name: 'Reviewer',
          ...(deleted ? { deleted_at: new Date().toISOString() } : {}),
        } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const live = await role(t.tenant.companyId);
  const client = await createClient('Roles');
  const created = await t.request('POST', '/client-members', {
    body: { client_id: client, person_id: owner, workflow_role_id: live },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.data.workflow_role_id, live);
  assert.equal((await stored(created.body.data.id))?.workflow_role_id, live);
  assert.deepEqual(
    (await t.request('GET', `/client-members?workflow_role_id=${live}`)).body.data.map((m: { id: number }) => m.id),
    [created.body.data.id],
  );
  for (const bad of [await role(other.companyId), await role(t.tenant.companyId, true)]) {
    const res = await t.request('PATCH', `/client-members/${created.body.data.id}`, {
      body: { workflow_role_id: bad },
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, 'INVALID_WORKFLOW_ROLE');
  }
  const cleared = await t.request('PATCH', `/client-members/${created.body.data.id}`, {
    body: { workflow_role_id: null },
  });
  assert.equal(cleared.status, 200);
  assert.equal(cleared.body.data.workflow_role_id, null);
});
