import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';
import { paramMakers } from '../../support/fixtures.ts';

const t = await createTestApp();

const insertRow = async (table: string, values: Record<string, unknown>): Promise<number> => {
  const row = await t.db.db
    .insertInto(table as never)
    .values(values as never)
    .returning('id' as never)
    .executeTakeFirstOrThrow();
  return (row as { id: number }).id;
};
const makeClient = (tenant: TenantFixture = t.tenant, defaultPersonId: number | null = null) =>
  insertRow('clients', { company_id: tenant.companyId, name: 'Note client', default_person_id: defaultPersonId });
const memberIdOf = async (personId: number) =>
  (
    await t.db.db
      .selectFrom('members')
      .select('id')
      .where('company_id', '=', t.tenant.companyId)
      .where('person_id', '=', personId)
      .executeTakeFirstOrThrow()
  ).id;
const storedNote = (id: number) =>
  t.db.db
    .selectFrom('notes')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirst();

async function createNote(body: Record<string, unknown>, key = 'write'): Promise<Record<string, any>> {
  const res = await t.request('POST', '/notes', { key, body });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

test('create, read, list, update and delete a note (preview resource, write tier)', async () => {
  const clientId = await makeClient();
  const created = await t.request('POST', '/notes', {
    key: 'write',
    body: { related_type: 'client', related_id: clientId, comments: '<p>Called <b>Ann</b></p>', is_pinned: true },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('x-api-preview'), 'true');
  const note = created.body.data;
  assert.deepEqual(Object.keys(note).sort(), [
    'comments',
    'created_at',
    'created_by_person_id',
    'id',
    'is_pinned',
    'related_id',
    'related_type',
    'type',
    'updated_at',
  ]);
  assert.equal(note.type, 'info');
  assert.equal(note.is_pinned, true);
  assert.equal(note.comments, '<p>Called <b>Ann</b></p>');
  const writeKey = await t.db.db
    .selectFrom('api_keys')
    .select('person_id')
    .where('id', '=', t.tenant.keyIds.write)
    .executeTakeFirstOrThrow();
  assert.equal(note.created_by_person_id, writeKey.person_id);
  assert.equal(created.headers.get('etag'), `"${note.updated_at}"`);
  const row = await storedNote(note.id);
  assert.equal(row?.related_type, 'client');
  assert.equal(row?.related_id, clientId);
  assert.equal(row?.comments, '<p>Called <b>Ann</b></p>');

  const read = await t.request('GET', `/notes/${note.id}`, { key: 'write' });
  assert.equal(read.status, 200, read.text);
  assert.equal(read.headers.get('x-api-preview'), 'true');
  assert.deepEqual(read.body.data, note);
  // The spec puts every notes verb, reads included, on the write tier.
  assert.equal((await t.request('GET', `/notes/${note.id}`, { key: 'read' })).status, 403);

  const patched = await t.request('PATCH', `/notes/${note.id}`, {
    body: { type: 'billing', is_pinned: false, comments: 'Paid <script>x()</script>late' },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.type, 'billing');
  assert.equal(patched.body.data.is_pinned, false);
  assert.equal(patched.body.data.comments, 'Paid late');
  assert.ok(patched.body.data.updated_at > note.updated_at);
  const afterPatch = await storedNote(note.id);
  assert.equal(afterPatch?.comments, 'Paid late');
  assert.equal(afterPatch?.type, 'billing');

  const empty = await t.request('PATCH', `/notes/${note.id}`, { body: {} });
  assert.deepEqual(empty.body.data, patched.body.data);

  const deleted = await t.request('DELETE', `/notes/${note.id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  assert.notEqual((await storedNote(note.id))?.deleted_at, null);
  const gone = await t.request('GET', `/notes/${note.id}`);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'NOT_FOUND');
  assert.equal((await t.request('PATCH', `/notes/${note.id}`, { body: { type: 'info' } })).status, 404);
  assert.equal((await t.request('DELETE', `/notes/${note.id}`)).status, 404);
});

test('notes hang on clients, projects, suppliers and account members (member id); the list filters', async () => {
  const clientId = await makeClient();
  const projectId = await paramMakers.project_id!(t, t.tenant, {});
  const supplierId = await insertRow('suppliers', { company_id: t.tenant.companyId, name: 'Paper Ltd' });
  const memberId = await memberIdOf(t.tenant.memberPersonId);
  const onClient = await createNote({ related_type: 'client', related_id: clientId, type: 'email' });
  const onProject = await createNote({ related_type: 'project', related_id: projectId, is_pinned: true });
  const onSupplier = await createNote({ related_type: 'supplier', related_id: supplierId, type: 'document' });
  const onMember = await createNote({ related_type: 'account_member', related_id: memberId, comments: 'Hi' });
  const ids = (res: { body: { data: Array<{ id: number }> } }) => res.body.data.map((n) => n.id);
  const all = [onClient, onProject, onSupplier, onMember].map((n) => n.id);
  const list = async (query: string) => {
    const res = await t.request('GET', `/notes?${query}`);
    assert.equal(res.status, 200, res.text);
    return ids(res).filter((id) => all.includes(id));
  };
  assert.deepEqual(await list('limit=200'), all);
  assert.deepEqual(await list(`related_type=client&related_id=${clientId}`), [onClient.id]);
  assert.deepEqual(await list('related_type=supplier,account_member'), [onSupplier.id, onMember.id]);
  assert.deepEqual(await list('type=email,document'), [onClient.id, onSupplier.id]);
  assert.deepEqual(await list('is_pinned=true'), [onProject.id]);
  assert.deepEqual(await list('is_pinned=0&related_type=project'), []);
  assert.deepEqual(await list('sort=-id&limit=200'), [...all].reverse());

  for (const query of ['related_type=person', 'type=memo', 'is_pinned=yes', 'related_id=0', 'colour=red']) {
    const res = await t.request('GET', `/notes?${query}`);
    assert.ok(res.status === 400 || res.status === 422, `${query}: ${res.text}`);
  }
  const unknown = await t.request('GET', '/notes?colour=red');
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
});

test('related_id must be a live record of the company: INVALID_CLIENT / PROJECT / SUPPLIER / PERSON', async () => {
  const other = await t.newTenant();
  const foreignClient = await makeClient(other);
  const deletedClient = await makeClient();
  await t.db.db
    .updateTable('clients')
    .set({ deleted_at: new Date().toISOString() })
    .where('id', '=', deletedClient)
    .execute();
  const cases: Array<[string, number, string]> = [
    ['client', foreignClient, 'INVALID_CLIENT'],
    ['client', deletedClient, 'INVALID_CLIENT'],
    ['project', 999999, 'INVALID_PROJECT'],
    ['supplier', 999999, 'INVALID_SUPPLIER'],
    ['account_member', 999999, 'INVALID_PERSON'],
  ];
  const before = await t.db.db
    .selectFrom('notes')
    .select(({ fn }) => fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  for (const [relatedType, relatedId, code] of cases) {
    const res = await t.request('POST', '/notes', { body: { related_type: relatedType, related_id: relatedId } });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, code);
    assert.equal(res.body.error.details.field, 'related_id');
  }
  const after = await t.db.db
    .selectFrom('notes')
    .select(({ fn }) => fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(after.n, before.n);

  // Moving a note checks the new pair: a type change alone re-checks the current id against the new table.
  const note = await createNote({ related_type: 'client', related_id: await makeClient() });
  const moved = await t.request('PATCH', `/notes/${note.id}`, { body: { related_type: 'supplier' } });
  assert.equal(moved.status, 400);
  assert.equal(moved.body.error.code, 'INVALID_SUPPLIER');
  const toForeign = await t.request('PATCH', `/notes/${note.id}`, { body: { related_id: foreignClient } });
  assert.equal(toForeign.body.error.code, 'INVALID_CLIENT');
  assert.equal((await storedNote(note.id))?.related_type, 'client');

  // Another company's note is simply not there.
  const foreignNote = await t.request('POST', '/notes', {
    tenant: other,
    body: { related_type: 'client', related_id: foreignClient },
  });
  assert.equal(foreignNote.status, 201);
  for (const method of ['GET', 'PATCH', 'DELETE']) {
    const res = await t.request(method, `/notes/${foreignNote.body.data.id}`, method === 'PATCH' ? { body: {} } : {});
    assert.equal(res.status, 404, `${method}: ${res.text}`);
  }
});

test('a plain member personal key sees only notes whose related record it sees', async () => {
  const mine = await makeClient(t.tenant, t.tenant.memberPersonId);
  const hidden = await makeClient();
  const visibleNote = await createNote({ related_type: 'client', related_id: mine });
  const hiddenNote = await createNote({ related_type: 'client', related_id: hidden });
  const memberNote = await createNote({
    related_type: 'account_member',
    related_id: await memberIdOf(t.tenant.ownerPersonId),
  });

  const listed = await t.request('GET', '/notes?limit=200', { key: 'personal' });
  assert.equal(listed.status, 200, listed.text);
  const ids = listed.body.data.map((n: { id: number }) => n.id);
  assert.ok(ids.includes(visibleNote.id));
  assert.ok(ids.includes(memberNote.id));
  assert.ok(!ids.includes(hiddenNote.id));
  assert.equal((await t.request('GET', `/notes/${hiddenNote.id}`, { key: 'personal' })).status, 404);
  assert.equal((await t.request('DELETE', `/notes/${hiddenNote.id}`, { key: 'personal' })).status, 404);

  const onHidden = await t.request('POST', '/notes', {
    key: 'personal',
    body: { related_type: 'client', related_id: hidden },
  });
  assert.equal(onHidden.status, 400);
  assert.equal(onHidden.body.error.code, 'INVALID_CLIENT');
  const own = await createNote({ related_type: 'client', related_id: mine, comments: 'mine' }, 'personal');
  assert.equal(own.created_by_person_id, t.tenant.memberPersonId);
});

test('bad bodies answer 400 VALIDATION_ERROR and store nothing', async () => {
  const clientId = await makeClient();
  const ok = { related_type: 'client', related_id: clientId };
  const bad: Array<[string, unknown]> = [
    ['missing related_id', { related_type: 'client' }],
    ['missing related_type', { related_id: clientId }],
    ['unknown related_type', { ...ok, related_type: 'person' }],
    ['unknown type', { ...ok, type: 'memo' }],
    ['related_id as text', { ...ok, related_id: String(clientId) }],
    ['huge related_id', { ...ok, related_id: 1e20 }],
    ['negative related_id', { ...ok, related_id: -1 }],
    ['is_pinned as text', { ...ok, is_pinned: 'true' }],
    ['comments as number', { ...ok, comments: 5 }],
    ['comments too long', { ...ok, comments: 'x'.repeat(65_536) }],
    ['NUL in comments', { ...ok, comments: 'a\u0000b' }],
    ['unknown field', { ...ok, company_id: 'x' }],
  ];
  const before = await t.db.db
    .selectFrom('notes')
    .select(({ fn }) => fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  for (const [why, body] of bad) {
    const res = await t.request('POST', '/notes', { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
  }
  const after = await t.db.db
    .selectFrom('notes')
    .select(({ fn }) => fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(after.n, before.n);
  const note = await createNote(ok);
  const patch = await t.request('PATCH', `/notes/${note.id}`, { body: { is_pinned: 1 } });
  assert.equal(patch.status, 400);
  assert.equal((await t.request('GET', '/notes/abc')).status, 400);
});

test('POST /notes is idempotent with an Idempotency-Key', async () => {
  const body = { related_type: 'client', related_id: await makeClient(), comments: 'once' };
  const headers = { 'idempotency-key': `note-${Date.now()}` };
  const first = await t.request('POST', '/notes', { body, headers });
  const again = await t.request('POST', '/notes', { body, headers });
  assert.equal(first.status, 201, first.text);
  assert.equal(again.status, 201, again.text);
  assert.equal(again.body.data.id, first.body.data.id);
  const reused = await t.request('POST', '/notes', { body: { ...body, comments: 'twice' }, headers });
  assert.equal(reused.status, 409, reused.text);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
});
