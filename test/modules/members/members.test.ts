import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });

async function memberIdOf(personId: number, companyId = t.tenant.companyId): Promise<number> {
  const row = await t.db.db
    .selectFrom('members')
    .select('id')
    .where('company_id', '=', companyId)
    .where('person_id', '=', personId)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function stored(id: number) {
  return t.db.db
    .selectFrom('members as m')
    .innerJoin('people as p', (j) => j.onRef('p.company_id', '=', 'm.company_id').onRef('p.id', '=', 'm.person_id'))
    .select([
      'p.name',
      'p.surname',
      'm.role',
      'm.status',
      'm.initials',
      'm.hr_lead_id',
      'm.flextime_credit',
      'm.vacation_credit',
      'm.updated_at',
    ])
    .where('m.company_id', '=', t.tenant.companyId)
    .where('m.id', '=', id)
    .executeTakeFirstOrThrow();
}

async function placeholder(body: Record<string, unknown>) {
  const created = await t.request('POST', '/members', { key: 'write', body });
  assert.equal(created.status, 201, created.text);
  return created.body.data;
}

const ownerId = await memberIdOf(t.tenant.ownerPersonId);
const markId = await memberIdOf(t.tenant.memberPersonId);
const otherMarkId = await memberIdOf(other.memberPersonId, other.companyId);
const ada = await placeholder({ name: 'Ada', surname: 'Lovelace', email: 'ada@calc.example', title: 'Analyst' });
const zed = await placeholder({ name: 'Zed', surname: '100%_Sure' });

test('POST creates a limited placeholder member with role member, person and member in one go', async () => {
  const created = await t.request('POST', '/members', {
    key: 'write',
    body: {
      name: 'Paula',
      surname: 'Place',
      email: 'paula@x.example',
      title: 'Designer',
      locale_code: 'et',
      ext_user_id: 'ext-9',
      member_type: 'contractor',
      hr_lead_id: t.tenant.ownerPersonId,
    },
  });
  assert.equal(created.status, 201, created.text);
  const m = created.body.data;
  assert.equal(m.status, 'limited');
  assert.equal(m.role, 'member');
  assert.equal(m.name, 'Paula');
  assert.equal(m.surname, 'Place');
  assert.equal(m.email, 'paula@x.example');
  assert.equal(m.initials, 'PP');
  assert.equal(m.member_type, 'contractor');
  assert.equal(m.hr_lead_id, t.tenant.ownerPersonId);
  assert.deepEqual(m.group_ids, []);
  assert.equal(m.flextime_credit, null);
  assert.match(m.created_at, /Z$/);
  assert.equal(created.headers.get('etag'), `"${m.updated_at}"`);
  const person = await t.db.db
    .selectFrom('people')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', m.person_id)
    .executeTakeFirstOrThrow();
  assert.equal(person.name, 'Paula');
  assert.equal((await stored(m.id)).status, 'limited');
});

test('POST refuses role and status in the body, and other invalid bodies', async () => {
  for (const body of [
    { name: 'A', status: 'active' },
    { name: 'A', role: 'admin' },
    { name: '' },
    { name: 'x'.repeat(256) },
    { surname: 'No name' },
    { name: 'A', email: 'not-an-email' },
  ]) {
    const res = await t.request('POST', '/members', { key: 'write', body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  const max = await t.request('POST', '/members', { key: 'write', body: { name: 'x'.repeat(255) } });
  assert.equal(max.status, 201);
});

test('POST is idempotent with Idempotency-Key', async () => {
  const headers = { 'idempotency-key': 'member-create-1' };
  const first = await t.request('POST', '/members', { key: 'write', headers, body: { name: 'Once' } });
  const second = await t.request('POST', '/members', { key: 'write', headers, body: { name: 'Once' } });
  assert.equal(first.status, 201);
  assert.equal(second.status, 201);
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.equal(second.body.data.id, first.body.data.id);
  const people = await t.db.db
    .selectFrom('people')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('name', '=', 'Once')
    .execute();
  assert.equal(people.length, 1);
});

test('POST with hr_lead_id that is not a member person of the company is 400 INVALID_PERSON', async () => {
  const loner = await t.db.db
    .insertInto('people')
    .values({ company_id: t.tenant.companyId, name: 'No Member', surname: null, email: null, phone: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const hr of [other.ownerPersonId, loner.id, 2147483647]) {
    const res = await t.request('POST', '/members', { key: 'write', body: { name: 'Lead Less', hr_lead_id: hr } });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'INVALID_PERSON');
    assert.equal(res.body.error.details.field, 'hr_lead_id');
  }
  const people = await t.db.db
    .selectFrom('people')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('name', '=', 'Lead Less')
    .execute();
  assert.equal(people.length, 0);
});

test('read keys cannot create members; personal keys of plain members cannot either', async () => {
  const read = await t.request('POST', '/members', { key: 'read', body: { name: 'R' } });
  assert.equal(read.status, 403);
  assert.equal(read.body.error.code, 'FORBIDDEN');
  const personal = await t.request('POST', '/members', { key: 'personal', body: { name: 'P' } });
  assert.equal(personal.status, 403);
  assert.equal(personal.body.error.code, 'FORBIDDEN');
  const owner = await t.request('POST', '/members', { key: 'personalAdmin', body: { name: 'By Owner' } });
  assert.equal(owner.status, 201);
});

test("GET /members lists the company's members with status, role and q filters", async () => {
  const all = await t.request('GET', '/members?limit=200', { key: 'read' });
  assert.equal(all.status, 200, all.text);
  const ids = all.body.data.map((m: { id: number }) => m.id);
  assert.ok(ids.includes(ownerId) && ids.includes(markId) && ids.includes(ada.id));
  assert.ok(!ids.includes(otherMarkId));
  assert.equal(all.body.meta.total, all.body.data.length);

  const owners = await t.request('GET', '/members?role=owner', { key: 'read' });
  assert.deepEqual(
    owners.body.data.map((m: { id: number }) => m.id),
    [ownerId],
  );
  const staff = await t.request('GET', '/members?role=owner,member&status=active', { key: 'read' });
  assert.deepEqual(
    staff.body.data.map((m: { id: number }) => m.id),
    [ownerId, markId],
  );
  const limited = await t.request('GET', '/members?status=limited', { key: 'read' });
  assert.ok(limited.body.data.every((m: { status: string }) => m.status === 'limited'));
  assert.ok(limited.body.data.some((m: { id: number }) => m.id === ada.id));

  const byName = await t.request('GET', '/members?q=OLIV', { key: 'read' });
  assert.deepEqual(
    byName.body.data.map((m: { id: number }) => m.id),
    [ownerId],
  );
  const bySurname = await t.request('GET', '/members?q=lovel', { key: 'read' });
  assert.deepEqual(
    bySurname.body.data.map((m: { id: number }) => m.id),
    [ada.id],
  );
  const byEmail = await t.request('GET', '/members?q=calc.example', { key: 'read' });
  assert.deepEqual(
    byEmail.body.data.map((m: { id: number }) => m.id),
    [ada.id],
  );
  const literal = await t.request('GET', `/members?q=${encodeURIComponent('0%_')}`, { key: 'read' });
  assert.deepEqual(
    literal.body.data.map((m: { id: number }) => m.id),
    [zed.id],
  );
  const none = await t.request('GET', '/members?q=nobody-here', { key: 'read' });
  assert.deepEqual(none.body, {
    data: [],
    meta: { total: 0, limit: 50, offset: 0, has_more: false, next_cursor: null },
  });
});

test('list filter and query errors', async () => {
  const unknown = await t.request('GET', '/members?colour=red', { key: 'read' });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
  const badStatus = await t.request('GET', '/members?status=retired', { key: 'read' });
  assert.equal(badStatus.status, 422);
  assert.equal(badStatus.body.error.code, 'INVALID_FILTER_VALUE');
  const badRole = await t.request('GET', '/members?role=boss', { key: 'read' });
  assert.equal(badRole.status, 422);
  const badSort = await t.request('GET', '/members?sort=email', { key: 'read' });
  assert.equal(badSort.status, 400);
  assert.equal(badSort.body.error.code, 'VALIDATION_ERROR');
  const badCursor = await t.request('GET', '/members?cursor=abc.def', { key: 'read' });
  assert.equal(badCursor.status, 400);
  assert.equal(badCursor.body.error.code, 'INVALID_CURSOR');
});

test('cursor paging walks the list in sort order without gaps or repeats', async () => {
  const offset = await t.request('GET', '/members?sort=-name&limit=200', { key: 'read' });
  const expected = offset.body.data.map((m: { id: number }) => m.id);
  assert.ok(expected.length >= 5);
  const seen: number[] = [];
  let page = await t.request('GET', '/members?sort=-name&limit=2', { key: 'read' });
  assert.equal(typeof page.body.meta.next_cursor, 'string');
  seen.push(...page.body.data.map((m: { id: number }) => m.id));
  while (page.body.meta.next_cursor) {
    page = await t.request('GET', `/members?limit=2&cursor=${encodeURIComponent(page.body.meta.next_cursor)}`, {
      key: 'read',
    });
    assert.equal(page.status, 200, page.text);
    assert.equal(page.body.meta.total, undefined);
    seen.push(...page.body.data.map((m: { id: number }) => m.id));
  }
  assert.equal(page.body.meta.has_more, false);
  assert.deepEqual(seen, expected);
});

test('credits read as null without the financials tier and as numbers for admin keys', async () => {
  await t.db.db
    .updateTable('members')
    .set({ flextime_credit: '7.50', vacation_credit: '-2.25' })
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', markId)
    .execute();
  for (const key of ['read', 'write', 'personal', 'personalAdmin']) {
    const one = await t.request('GET', `/members/${markId}`, { key });
    assert.equal(one.status, 200);
    assert.equal(one.body.data.flextime_credit, null, key);
    assert.equal(one.body.data.vacation_credit, null, key);
    const list = await t.request('GET', '/members?role=member&status=active', { key });
    assert.equal(list.body.data[0].flextime_credit, null, key);
  }
  const admin = await t.request('GET', `/members/${markId}`, { key: 'admin' });
  assert.equal(admin.body.data.flextime_credit, 7.5);
  assert.equal(admin.body.data.vacation_credit, -2.25);
  const list = await t.request('GET', '/members?role=member&status=active', { key: 'admin' });
  assert.equal(list.body.data[0].vacation_credit, -2.25);
  const writeResponse = await t.request('PATCH', `/members/${markId}`, {
    key: 'write',
    body: { member_type: 'staff' },
  });
  assert.equal(writeResponse.status, 200);
  assert.equal(writeResponse.body.data.flextime_credit, null);
  const adminResponse = await t.request('PATCH', `/members/${markId}`, {
    key: 'admin',
    body: { member_type: 'staff' },
  });
  assert.equal(adminResponse.body.data.flextime_credit, 7.5);
});

test("GET one member sets the ETag; another tenant's or an unknown member is 404", async () => {
  const one = await t.request('GET', `/members/${ada.id}`, { key: 'read' });
  assert.equal(one.status, 200);
  assert.equal(one.headers.get('etag'), `"${one.body.data.updated_at}"`);
  assert.equal(one.body.data.title, 'Analyst');
  for (const path of [`/members/${otherMarkId}`, '/members/2147483647']) {
    const res = await t.request('GET', path, { key: 'read' });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  const patched = await t.request('PATCH', `/members/${otherMarkId}`, { key: 'admin', body: { name: 'Hijack' } });
  assert.equal(patched.status, 404);
  const theirs = await t.db.db
    .selectFrom('people')
    .select('name')
    .where('company_id', '=', other.companyId)
    .where('id', '=', other.memberPersonId)
    .executeTakeFirstOrThrow();
  assert.equal(theirs.name, 'Mark');
  const bad = await t.request('GET', '/members/abc', { key: 'read' });
  assert.equal(bad.status, 400);
});

test('members cannot be deleted', async () => {
  const res = await t.request('DELETE', `/members/${ada.id}`, { key: 'admin' });
  assert.equal(res.status, 404);
  assert.equal(res.body.error.code, 'NOT_FOUND');
  assert.equal((await t.request('GET', `/members/${ada.id}`)).status, 200);
});

test('PATCH updates the person and member fields and bumps the ETag', async () => {
  const before = await t.request('GET', `/members/${ada.id}`);
  const res = await t.request('PATCH', `/members/${ada.id}`, {
    key: 'write',
    body: {
      name: 'Augusta',
      surname: 'King',
      locale_code: 'en',
      ext_user_id: 'u-1',
      member_type: 'analyst',
      hr_lead_id: t.tenant.memberPersonId,
    },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.name, 'Augusta');
  assert.equal(res.body.data.surname, 'King');
  assert.equal(res.body.data.initials, 'AK');
  assert.equal(res.body.data.email, 'ada@calc.example');
  assert.equal(res.body.data.hr_lead_id, t.tenant.memberPersonId);
  assert.notEqual(res.body.data.updated_at, before.body.data.updated_at);
  assert.equal(res.headers.get('etag'), `"${res.body.data.updated_at}"`);
  const row = await stored(ada.id);
  assert.equal(row.name, 'Augusta');
  assert.equal(row.hr_lead_id, t.tenant.memberPersonId);
  const cleared = await t.request('PATCH', `/members/${ada.id}`, {
    key: 'write',
    body: { hr_lead_id: null, surname: null },
  });
  assert.equal(cleared.body.data.hr_lead_id, null);
  assert.equal(cleared.body.data.initials, 'A');
  const empty = await t.request('PATCH', `/members/${ada.id}`, { key: 'write', body: {} });
  assert.equal(empty.status, 200);
  assert.equal(empty.body.data.updated_at, cleared.body.data.updated_at);
});

test('PATCH hr_lead_id of another tenant is 400 INVALID_PERSON and nothing is written', async () => {
  const res = await t.request('PATCH', `/members/${ada.id}`, {
    key: 'write',
    body: { name: 'Changed', hr_lead_id: other.ownerPersonId },
  });
  assert.equal(res.status, 400);
  assert.equal(res.body.error.code, 'INVALID_PERSON');
  assert.notEqual((await stored(ada.id)).name, 'Changed');
});

test('PATCH touching role or status is 403 MANAGEMENT_UI_ONLY and stores nothing', async () => {
  const before = await stored(markId);
  for (const body of [
    { role: 'admin' },
    { status: 'inactive' },
    { name: 'Renamed', role: 'member' },
    { name: 'Renamed', status: 'active' },
  ]) {
    for (const key of ['write', 'admin']) {
      const res = await t.request('PATCH', `/members/${markId}`, { key, body });
      assert.equal(res.status, 403, JSON.stringify(body));
      assert.equal(res.body.error.code, 'MANAGEMENT_UI_ONLY');
      assert.ok(Array.isArray(res.body.error.details.fields));
    }
  }
  assert.deepEqual(await stored(markId), before);
});

test('PATCH credits with a write or personal key is 403 FINANCIAL_SCOPE_REQUIRED', async () => {
  const before = await stored(markId);
  for (const key of ['write', 'personal', 'personalAdmin']) {
    const res = await t.request('PATCH', `/members/${markId}`, { key, body: { flextime_credit: 1 } });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    assert.equal(res.body.error.details.required_scope, 'financials');
  }
  const cleared = await t.request('PATCH', `/members/${markId}`, { key: 'write', body: { vacation_credit: null } });
  assert.equal(cleared.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
  assert.deepEqual(await stored(markId), before);
});

test('PATCH credits needs If-Match: 428 when absent, 412 when stale, stored exactly when fresh', async () => {
  const missing = await t.request('PATCH', `/members/${markId}`, { key: 'admin', body: { flextime_credit: 12.5 } });
  assert.equal(missing.status, 428);
  assert.equal(missing.body.error.code, 'PRECONDITION_REQUIRED');

  const read = await t.request('GET', `/members/${markId}`, { key: 'admin' });
  const etag = read.headers.get('etag')!;
  await t.request('PATCH', `/members/${markId}`, { key: 'write', body: { ext_user_id: 'bump' } });
  const before = await stored(markId);
  const stale = await t.request('PATCH', `/members/${markId}`, {
    key: 'admin',
    headers: { 'if-match': etag },
    body: { flextime_credit: 12.5 },
  });
  assert.equal(stale.status, 412);
  assert.equal(stale.body.error.code, 'STALE_WRITE');
  const garbage = await t.request('PATCH', `/members/${markId}`, {
    key: 'admin',
    headers: { 'if-match': '"not-a-version"' },
    body: { flextime_credit: 12.5 },
  });
  assert.equal(garbage.status, 412);
  assert.deepEqual(await stored(markId), before);

  const fresh = await t.request('GET', `/members/${markId}`, { key: 'admin' });
  const ok = await t.request('PATCH', `/members/${markId}`, {
    key: 'admin',
    headers: { 'if-match': fresh.headers.get('etag')! },
    body: { flextime_credit: 12.5, vacation_credit: -3.25, name: 'Marcus' },
  });
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.data.flextime_credit, 12.5);
  assert.equal(ok.body.data.vacation_credit, -3.25);
  assert.equal(ok.body.data.name, 'Marcus');
  const row = await stored(markId);
  assert.equal(row.flextime_credit, '12.50');
  assert.equal(row.vacation_credit, '-3.25');
  assert.equal(ok.headers.get('etag'), `"${row.updated_at}"`);

  const reused = await t.request('PATCH', `/members/${markId}`, {
    key: 'admin',
    headers: { 'if-match': fresh.headers.get('etag')! },
    body: { flextime_credit: 1 },
  });
  assert.equal(reused.status, 412);
  const bare = await t.request('PATCH', `/members/${markId}`, {
    key: 'admin',
    headers: { 'if-match': row.updated_at },
    body: { flextime_credit: 999999999.99, vacation_credit: null },
  });
  assert.equal(bare.status, 200, bare.text);
  assert.equal(bare.body.data.flextime_credit, 999999999.99);
  assert.equal(bare.body.data.vacation_credit, null);
  const after = await stored(markId);
  assert.equal(after.flextime_credit, '999999999.99');
  assert.equal(after.vacation_credit, null);
});

test('PATCH credits must be numbers with at most 2 decimals and below 1e9', async () => {
  const fresh = await t.request('GET', `/members/${ownerId}`, { key: 'admin' });
  const headers = { 'if-match': fresh.headers.get('etag')! };
  for (const value of [1.234, 0.001, 1e-7, 1e9, -1e9, '12.5', true]) {
    const res = await t.request('PATCH', `/members/${ownerId}`, {
      key: 'admin',
      headers,
      body: { vacation_credit: value },
    });
    assert.equal(res.status, 400, String(value));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  const reason = await t.request('PATCH', `/members/${ownerId}`, {
    key: 'admin',
    headers,
    body: { vacation_credit: 1.234 },
  });
  assert.equal(reason.body.error.details.reason, 'INVALID_AMOUNT');
  assert.equal((await stored(ownerId)).vacation_credit, null);
});

test('PATCH validation: name length, unknown fields, wrong types', async () => {
  for (const body of [
    { name: '' },
    { name: 'x'.repeat(256) },
    { nickname: 'Al' },
    { hr_lead_id: 'one' },
    { email: 'a@b.example' },
    { locale_code: 'x'.repeat(17) },
  ]) {
    const res = await t.request('PATCH', `/members/${ada.id}`, { key: 'write', body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  const unknown = await t.request('PATCH', `/members/${ada.id}`, { key: 'write', body: { nickname: 'Al' } });
  assert.equal(unknown.body.error.details.errors[0].field, 'nickname');
  const read = await t.request('PATCH', `/members/${ada.id}`, { key: 'read', body: { name: 'R' } });
  assert.equal(read.status, 403);
  assert.equal(read.body.error.code, 'FORBIDDEN');
});

test("a plain member's personal key sees the team, edits only its own record", async () => {
  const list = await t.request('GET', '/members?limit=200', { key: 'personal' });
  assert.equal(list.status, 200);
  assert.ok(list.body.data.some((m: { id: number }) => m.id === ownerId));
  const owner = await t.request('GET', `/members/${ownerId}`, { key: 'personal' });
  assert.equal(owner.status, 200);
  const foreign = await t.request('PATCH', `/members/${ownerId}`, { key: 'personal', body: { locale_code: 'de' } });
  assert.equal(foreign.status, 403);
  assert.equal(foreign.body.error.code, 'FORBIDDEN');
  const own = await t.request('PATCH', `/members/${markId}`, { key: 'personal', body: { locale_code: 'de' } });
  assert.equal(own.status, 200, own.text);
  assert.equal(own.body.data.locale_code, 'de');
  const byOwner = await t.request('PATCH', `/members/${markId}`, { key: 'personalAdmin', body: { locale_code: 'fi' } });
  assert.equal(byOwner.status, 200);
});
