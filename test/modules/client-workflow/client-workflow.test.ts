import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { createClient, createRole, eventCount, insertMember, storedMembers } from './fixtures.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other workflow co' });

const storedClient = (id: number) =>
  t.db.db
    .selectFrom('clients')
    .select(['default_person_id', 'updated_at'])
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

test('PUT manager sets and clears the default person and fires client.updated only on a change', async () => {
  const client = await createClient(t);
  const events = await eventCount(t, 'client.updated');
  const res = await t.request('PUT', `/clients/${client.id}/manager`, {
    key: 'write',
    body: { person_id: t.tenant.memberPersonId },
  });
  assert.equal(res.status, 200, res.text);
  const stored = await storedClient(client.id);
  assert.deepEqual(res.body.data, {
    client_id: client.id,
    person_id: t.tenant.memberPersonId,
    updated_at: stored.updated_at,
  });
  assert.equal(stored.default_person_id, t.tenant.memberPersonId);
  assert.equal(res.headers.get('etag'), `"${stored.updated_at}"`);
  assert.equal(await eventCount(t, 'client.updated'), events + 1);
  const event = await t.db.db
    .selectFrom('events')
    .select(['record_id', 'data'])
    .where('company_id', '=', t.tenant.companyId)
    .where('event', '=', 'client.updated')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const data = event.data as Record<string, unknown>;
  assert.equal(event.record_id, client.id);
  assert.equal(data.default_person_id, t.tenant.memberPersonId);
  assert.equal('contacts' in data, false, 'client events carry the lean client');
  assert.equal((await t.request('GET', `/clients/${client.id}`)).body.data.default_person_id, t.tenant.memberPersonId);

  const same = await t.request('PUT', `/clients/${client.id}/manager`, {
    body: { person_id: t.tenant.memberPersonId },
  });
  assert.equal(same.status, 200, same.text);
  assert.equal((await storedClient(client.id)).updated_at, stored.updated_at, 're-sending the manager changes nothing');
  assert.equal(await eventCount(t, 'client.updated'), events + 1);

  const cleared = await t.request('PUT', `/clients/${client.id}/manager`, { body: { person_id: null } });
  assert.equal(cleared.status, 200, cleared.text);
  assert.equal(cleared.body.data.person_id, null);
  assert.equal((await storedClient(client.id)).default_person_id, null);
  assert.equal(await eventCount(t, 'client.updated'), events + 2);
});

test('PUT manager refuses non-members, bad bodies, foreign and invisible clients', async () => {
  const client = await createClient(t);
  const inactive = await insertMember(t, 'inactive');
  const cases: Array<[unknown, number, string]> = [
    [{ person_id: other.ownerPersonId }, 400, 'INVALID_PERSON'],
    [{ person_id: inactive }, 400, 'INVALID_PERSON'],
    [{ person_id: 2147483000 }, 400, 'INVALID_PERSON'],
    [{}, 400, 'VALIDATION_ERROR'],
    [{ person_id: '7' }, 400, 'VALIDATION_ERROR'],
    [{ person_id: 1e12 }, 400, 'VALIDATION_ERROR'],
    [{ person_id: t.tenant.ownerPersonId, extra: 1 }, 400, 'VALIDATION_ERROR'],
    [{ person_id: 'a\u0000b' }, 400, 'VALIDATION_ERROR'],
  ];
  for (const [body, status, code] of cases) {
    const res = await t.request('PUT', `/clients/${client.id}/manager`, { body });
    assert.equal(res.status, status, `${JSON.stringify(body)}: ${res.text}`);
    assert.equal(res.body.error.code, code);
  }
  const invalid = await t.request('PUT', `/clients/${client.id}/manager`, { body: { person_id: inactive } });
  assert.deepEqual(invalid.body.error.details, { field: 'person_id', value: inactive });
  assert.equal((await storedClient(client.id)).default_person_id, null);
  const foreign = await createClient(t, {}, other);
  const res = await t.request('PUT', `/clients/${foreign.id}/manager`, { body: {} });
  assert.equal(res.status, 404, res.text);
  const hidden = await t.request('PUT', `/clients/${client.id}/manager`, {
    key: 'personal',
    body: { person_id: t.tenant.memberPersonId },
  });
  assert.equal(hidden.status, 404, 'a plain member cannot reach a client they do not see');
  assert.equal((await t.request('PUT', `/clients/${client.id}/manager`, { key: 'read', body: {} })).status, 403);
});

test('a plain member who hands their client on gets the change answered, then loses sight of it', async () => {
  const client = await createClient(t, { default_person_id: t.tenant.memberPersonId });
  const res = await t.request('PUT', `/clients/${client.id}/manager`, {
    key: 'personal',
    body: { person_id: t.tenant.ownerPersonId },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.person_id, t.tenant.ownerPersonId);
  assert.equal((await t.request('GET', `/clients/${client.id}`, { key: 'personal' })).status, 404);
});

test('member roles: GET lists members, PUT replaces the set in one transaction', async () => {
  const client = await createClient(t);
  const [accountant, reviewer] = [await createRole(t, 'Accountant'), await createRole(t, 'Reviewer')];
  const pending = await insertMember(t, 'pending');
  const keep = await t.request('POST', '/client-members', {
    body: { client_id: client.id, person_id: t.tenant.ownerPersonId, workflow_role_id: reviewer },
  });
  assert.equal(keep.status, 201, keep.text);
  const events = await eventCount(t);

  const put = await t.request('PUT', `/clients/${client.id}/member-roles`, {
    key: 'write',
    body: {
      members: [
        { person_id: t.tenant.memberPersonId, workflow_role_id: accountant },
        { person_id: pending, workflow_role_id: null },
      ],
    },
  });
  assert.equal(put.status, 200, put.text);
  const owner = t.tenant.ownerPersonId;
  const expected = [
    [owner, null],
    [t.tenant.memberPersonId, accountant],
    [pending, null],
  ].sort((a, b) => (a[0] as number) - (b[0] as number));
  assert.deepEqual(await storedMembers(t, client.id), expected);
  assert.deepEqual(
    put.body.data.members.map((m: any) => [m.person_id, m.workflow_role_id]),
    expected,
  );
  assert.equal(put.body.data.client_id, client.id);
  assert.equal(put.body.data.members.find((m: any) => m.person_id === owner).client_member_id, keep.body.data.id);
  assert.equal(await eventCount(t), events, 'member roles fire no events');

  const get = await t.request('GET', `/clients/${client.id}/member-roles`, { key: 'write' });
  assert.equal(get.status, 200, get.text);
  assert.deepEqual(get.body.data, put.body.data);

  // The owner's membership takes a role again; an empty set clears every role but keeps memberships.
  const again = await t.request('PUT', `/clients/${client.id}/member-roles`, {
    body: { members: [{ person_id: owner, workflow_role_id: accountant }] },
  });
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(
    (await storedMembers(t, client.id)).find((m) => m[0] === owner),
    [owner, accountant],
  );
  const cleared = await t.request('PUT', `/clients/${client.id}/member-roles`, { body: { members: [] } });
  assert.equal(cleared.status, 200, cleared.text);
  assert.deepEqual(
    (await storedMembers(t, client.id)).map((m) => m[1]),
    [null, null, null],
  );
});

test('member roles refuse bad sets without writing anything', async () => {
  const client = await createClient(t);
  const role = await createRole(t, 'Payroll');
  const foreignRole = await createRole(t, 'Theirs', other);
  const inactive = await insertMember(t, 'inactive');
  const me = t.tenant.memberPersonId;
  const cases: Array<[unknown, string, string?]> = [
    [
      { members: [{ person_id: other.memberPersonId, workflow_role_id: role }] },
      'INVALID_PERSON',
      'members[0].person_id',
    ],
    [
      {
        members: [
          { person_id: me, workflow_role_id: role },
          { person_id: inactive, workflow_role_id: null },
        ],
      },
      'INVALID_PERSON',
      'members[1].person_id',
    ],
    [
      { members: [{ person_id: me, workflow_role_id: foreignRole }] },
      'INVALID_WORKFLOW_ROLE',
      'members[0].workflow_role_id',
    ],
    [
      {
        members: [
          { person_id: me, workflow_role_id: role },
          { person_id: me, workflow_role_id: null },
        ],
      },
      'VALIDATION_ERROR',
      'members[1].person_id',
    ],
    [{}, 'VALIDATION_ERROR'],
    [{ members: [{ person_id: me }] }, 'VALIDATION_ERROR'],
    [{ members: [{ person_id: me, workflow_role_id: role, role: 'x' }] }, 'VALIDATION_ERROR'],
    [
      { members: Array.from({ length: 201 }, (_, i) => ({ person_id: i + 1, workflow_role_id: null })) },
      'VALIDATION_ERROR',
    ],
    [{ members: 'all' }, 'VALIDATION_ERROR'],
  ];
  for (const [body, code, field] of cases) {
    const res = await t.request('PUT', `/clients/${client.id}/member-roles`, { body });
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 100)}: ${res.text}`);
    assert.equal(res.body.error.code, code);
    if (field) assert.equal(res.body.error.details.field, field);
  }
  assert.deepEqual(await storedMembers(t, client.id), []);
  const foreign = await createClient(t, {}, other);
  assert.equal((await t.request('GET', `/clients/${foreign.id}/member-roles`)).status, 404);
  assert.equal((await t.request('PUT', `/clients/${foreign.id}/member-roles`, { body: {} })).status, 404);
  assert.equal((await t.request('GET', `/clients/${client.id}/member-roles`, { key: 'read' })).status, 403);
  assert.equal((await t.request('GET', `/clients/${client.id}/member-roles`, { key: 'personal' })).status, 404);
});
