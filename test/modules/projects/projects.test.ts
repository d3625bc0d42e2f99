import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp } from '../../helpers.ts';
import { projectFixtures } from './fixtures.ts';

const t = await createTestApp();
// custom_fields values are checked against the company's definitions (issue 12).
await t.request('POST', '/custom-fields', {
  body: { name: 'budget_code', field_type: 'text', entity_type: 'project' },
});
const f = projectFixtures(t);

const FIELDS = [
  'client_id',
  'created_at',
  'custom_fields',
  'event_date',
  'id',
  'manager_id',
  'name',
  'project_type_id',
  'status',
  'status_text',
  'updated_at',
];

test('create, read, list, update and delete a project; every answer carries X-Api-Preview', async () => {
  const typeId = await f.projectTypeId();
  const clientId = await f.createClient('Project client');
  const since = await f.lastEventId();
  const created = await t.request('POST', '/projects', {
    key: 'write',
    body: {
      name: 'Launch',
      project_type_id: typeId,
      client_id: clientId,
      manager_id: t.tenant.ownerPersonId,
      status_text: 'kick-off',
      event_date: '2026-05-01T10:00:00+02:00',
      fields: { budget_code: 'B7' },
    },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('x-api-preview'), 'true');
  const project = created.body.data;
  assert.deepEqual(Object.keys(project).sort(), FIELDS);
  assert.equal(project.status, 'active');
  assert.equal(project.event_date, '2026-05-01T08:00:00.000Z');
  assert.deepEqual(project.custom_fields, { budget_code: 'B7' });
  assert.equal(project.client_id, clientId);
  assert.equal(created.headers.get('etag'), `"${project.updated_at}"`);
  const row = await f.storedProject(project.id);
  assert.equal(row?.name, 'Launch');
  assert.equal(row?.status, 'active');
  assert.equal(row?.manager_id, t.tenant.ownerPersonId);

  const read = await t.request('GET', `/projects/${project.id}`, { key: 'write' });
  assert.equal(read.status, 200, read.text);
  assert.equal(read.headers.get('x-api-preview'), 'true');
  assert.deepEqual(read.body.data, project);

  const list = await t.request('GET', '/projects?q=laun', { key: 'write' });
  assert.equal(list.status, 200, list.text);
  assert.equal(list.headers.get('x-api-preview'), 'true');
  assert.deepEqual(list.body.data, [project]);
  assert.deepEqual(list.body.meta, { total: 1, limit: 50, offset: 0, has_more: false, next_cursor: null });

  const patched = await t.request('PATCH', `/projects/${project.id}`, {
    key: 'write',
    body: { name: 'Launch v2', status_text: null, event_date: null, manager_id: null, custom_fields: null },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.headers.get('x-api-preview'), 'true');
  assert.equal(patched.body.data.name, 'Launch v2');
  assert.equal(patched.body.data.status_text, null);
  assert.equal(patched.body.data.event_date, null);
  assert.equal(patched.body.data.manager_id, null);
  assert.equal(patched.body.data.custom_fields, null);
  assert.ok(patched.body.data.updated_at > project.updated_at);

  const unchanged = await t.request('PATCH', `/projects/${project.id}`, { body: {} });
  assert.equal(unchanged.status, 200);
  assert.deepEqual(unchanged.body.data, patched.body.data);

  const deleted = await t.request('DELETE', `/projects/${project.id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.headers.get('x-api-preview'), 'true');
  assert.notEqual((await f.storedProject(project.id))?.deleted_at, null);
  const gone = await t.request('GET', `/projects/${project.id}`);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'NOT_FOUND');
  assert.equal(gone.headers.get('x-api-preview'), 'true', 'error answers of preview routes carry the header too');
  assert.equal((await t.request('PATCH', `/projects/${project.id}`, { body: { name: 'x' } })).status, 404);
  assert.equal((await t.request('DELETE', `/projects/${project.id}`)).status, 404);

  const events = await f.eventsSince(since);
  assert.deepEqual(
    events.map((e) => e.event),
    ['project.created', 'project.updated', 'project.deleted'],
  );
  assert.deepEqual(events[0]!.data, project);
  assert.deepEqual(events[1]!.data, patched.body.data);
  assert.deepEqual(events[2]!.data, { id: project.id });
});

test('a project without client or manager; client_id may be null on create', async () => {
  const res = await t.request('POST', '/projects', {
    body: { name: 'Internal tooling', project_type_id: await f.projectTypeId(t.tenant, 'Internal'), client_id: null },
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.data.client_id, null);
  assert.equal(res.body.data.manager_id, null);
  assert.equal(res.body.data.custom_fields, null);
});

test('invalid bodies: 400 VALIDATION_ERROR, nothing stored; raw status is not writable', async () => {
  const typeId = await f.projectTypeId();
  const id = await f.createProject({ name: 'Stable' });
  const before = await f.storedProject(id);
  const count = async () =>
    (
      await t.db.db
        .selectFrom('projects')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  const n = await count();
  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['empty name', { name: '', project_type_id: typeId }, 'name'],
    ['256-character name', { name: 'x'.repeat(256), project_type_id: typeId }, 'name'],
    ['raw status', { name: 'P', project_type_id: typeId, status: 'cancelled' }, 'status'],
    [
      'event_date without offset',
      { name: 'P', project_type_id: typeId, event_date: '2026-05-01T10:00:00' },
      'event_date',
    ],
    ['unknown field', { name: 'P', project_type_id: typeId, colour: 'red' }, 'colour'],
    ['project_type_id as text', { name: 'P', project_type_id: String(typeId) }, 'project_type_id'],
  ];
  for (const [why, body, field] of [...bad, ['missing project_type_id', { name: 'P' }, 'project_type_id'] as const]) {
    const res = await t.request('POST', '/projects', { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
    assert.equal(res.headers.get('x-api-preview'), 'true');
    assert.ok(JSON.stringify(res.body.error.details).includes(field), `${why}: ${res.text}`);
  }
  const both = await t.request('POST', '/projects', {
    body: { name: 'P', project_type_id: typeId, fields: {}, custom_fields: {} },
  });
  assert.equal(both.status, 400);
  assert.equal(both.body.error.details.reason, 'DUPLICATE_ALIAS');
  assert.equal(await count(), n);

  const patchBad = bad
    .filter(([w]) => w !== 'project_type_id as text')
    .map(([w, b]) => [w, { ...b, project_type_id: undefined }] as const);
  for (const [why, body] of [
    ...patchBad,
    ['unknown status_action', { status_action: 'finish' }] as const,
    ['null client_id', { client_id: null }] as const,
    ['null project_type_id', { project_type_id: null }] as const,
  ]) {
    const res = await t.request('PATCH', `/projects/${id}`, { body: JSON.parse(JSON.stringify(body)) });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
  }
  const raw = await t.request('PATCH', `/projects/${id}`, { body: { status: 'archived' } });
  assert.equal(raw.body.error.details.reason, 'READ_ONLY_FIELD');
  assert.match(raw.body.error.message, /status_action/);
  assert.deepEqual(await f.storedProject(id), before);
  const badId = await t.request('GET', '/projects/abc');
  assert.equal(badId.status, 400);
  assert.equal(badId.body.error.code, 'VALIDATION_ERROR');
});

test("references: INVALID_PROJECT_TYPE, INVALID_CLIENT, INVALID_PERSON for absent, deleted or another tenant's ids", async () => {
  const other = await t.newTenant({ name: 'Other Co' });
  const typeId = await f.projectTypeId();
  const foreignType = await f.projectTypeId(other);
  const foreignClient = await f.createClient('Foreign client', other);
  const deletedClient = await f.createClient('Gone client');
  assert.equal((await t.request('DELETE', `/clients/${deletedClient}`)).status, 204);
  const deletedType = (
    await t.db.db
      .insertInto('project_types')
      .values({
        company_id: t.tenant.companyId,
        name: 'Retired',
        status: 'active',
        deleted_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const id = await f.createProject({ name: 'Referencing' });
  const before = await f.storedProject(id);
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ project_type_id: foreignType }, 'INVALID_PROJECT_TYPE', 'project_type_id'],
    [{ project_type_id: deletedType }, 'INVALID_PROJECT_TYPE', 'project_type_id'],
    [{ project_type_id: 999999 }, 'INVALID_PROJECT_TYPE', 'project_type_id'],
    [{ client_id: foreignClient }, 'INVALID_CLIENT', 'client_id'],
    [{ client_id: deletedClient }, 'INVALID_CLIENT', 'client_id'],
    [{ manager_id: other.ownerPersonId }, 'INVALID_PERSON', 'manager_id'],
  ];
  for (const [body, code, field] of cases) {
    const created = await t.request('POST', '/projects', { body: { name: 'Nope', project_type_id: typeId, ...body } });
    assert.equal(created.status, 400, created.text);
    assert.equal(created.body.error.code, code);
    assert.equal(created.body.error.details.field, field);
    const patched = await t.request('PATCH', `/projects/${id}`, { body });
    assert.equal(patched.status, 400, patched.text);
    assert.equal(patched.body.error.code, code);
  }
  assert.deepEqual(await t.db.db.selectFrom('projects').select('id').where('name', '=', 'Nope').execute(), []);
  assert.deepEqual(await f.storedProject(id), before);
});

test('status_action: every allowed transition, and 409 INVALID_STATUS_TRANSITION for the others', async () => {
  const id = await f.createProject({ name: 'Lifecycle' });
  const act = (action: string) => t.request('PATCH', `/projects/${id}`, { body: { status_action: action } });
  const expectStatus = async (action: string, status: string) => {
    const res = await act(action);
    assert.equal(res.status, 200, `${action}: ${res.text}`);
    assert.equal(res.body.data.status, status);
    assert.equal((await f.storedProject(id))?.status, status);
  };
  const refuse = async (action: string, from: string) => {
    const before = await f.storedProject(id);
    const res = await act(action);
    assert.equal(res.status, 409, `${action} from ${from}: ${res.text}`);
    assert.equal(res.body.error.code, 'INVALID_STATUS_TRANSITION');
    assert.deepEqual(res.body.error.details, { from, action });
    assert.equal(res.headers.get('x-api-preview'), 'true');
    assert.deepEqual(await f.storedProject(id), before);
  };
  await refuse('activate', 'active');
  await refuse('unarchive', 'active');
  await expectStatus('cancel', 'cancelled');
  await refuse('cancel', 'cancelled');
  await refuse('unarchive', 'cancelled');
  await expectStatus('activate', 'active');
  await expectStatus('archive', 'archived');
  await refuse('archive', 'archived');
  await refuse('activate', 'archived');
  await refuse('cancel', 'archived');
  await expectStatus('unarchive', 'active');
  await expectStatus('cancel', 'cancelled');
  await expectStatus('archive', 'archived');
  assert.equal((await f.storedProject(id))?.archived_from, 'cancelled');
  await expectStatus('unarchive', 'cancelled');
  assert.equal((await f.storedProject(id))?.archived_from, null);
  const combined = await t.request('PATCH', `/projects/${id}`, {
    body: { status_action: 'activate', status_text: 'back on' },
  });
  assert.equal(combined.status, 200);
  assert.equal(combined.body.data.status, 'active');
  assert.equal(combined.body.data.status_text, 'back on');
  const events = await t.db.db
    .selectFrom('events')
    .select('event')
    .where('record_id', '=', id)
    .where('entity', '=', 'project')
    .execute();
  assert.equal(events.length, 1 + 8, 'one created and one updated per successful change');
});

test('list filters, sorting, 422 for a bad filter value, cursor paging', async () => {
  const clientA = await f.createClient('Filter A');
  const eventType = await f.projectTypeId(t.tenant, 'Event');
  const a = await f.createProject({ name: 'Zeta filter', client_id: clientA, manager_id: t.tenant.memberPersonId });
  const b = await f.createProject({ name: 'Alpha filter', project_type_id: eventType });
  const c = await f.createProject({ name: 'Mid filter' });
  assert.equal((await t.request('PATCH', `/projects/${c}`, { body: { status_action: 'cancel' } })).status, 200);
  const ids = async (query: string) => {
    const res = await t.request('GET', `/projects?q=filter&${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((p: { id: number }) => p.id);
  };
  assert.deepEqual(await ids(''), [a, b, c]);
  assert.deepEqual(await ids('status=cancelled'), [c]);
  assert.deepEqual(await ids('status=active,archived'), [a, b]);
  assert.deepEqual(await ids(`client_id=${clientA}`), [a]);
  assert.deepEqual(await ids(`manager_id=${t.tenant.memberPersonId}`), [a]);
  assert.deepEqual(await ids(`project_type_id=${eventType}`), [b]);
  assert.deepEqual(await ids('sort=name'), [b, c, a]);
  assert.deepEqual(await ids('sort=-id'), [c, b, a]);
  const bad = await t.request('GET', '/projects?status=finished');
  assert.equal(bad.status, 422);
  assert.equal(bad.body.error.code, 'INVALID_FILTER_VALUE');
  assert.equal(bad.headers.get('x-api-preview'), 'true');
  const unknown = await t.request('GET', '/projects?title=x');
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
  const first = await t.request('GET', '/projects?q=filter&limit=2');
  assert.equal(first.body.meta.has_more, true);
  const second = await t.request('GET', `/projects?limit=2&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`);
  assert.equal(second.status, 200, second.text);
  assert.deepEqual(
    second.body.data.map((p: { id: number }) => p.id),
    [c],
  );
  assert.equal(second.body.meta.total, undefined);
  const badCursor = await t.request('GET', '/projects?cursor=nope');
  assert.equal(badCursor.status, 400);
  assert.equal(badCursor.body.error.code, 'INVALID_CURSOR');
});

test("another tenant's project answers 404 and stays untouched; the read key is refused (write scope)", async () => {
  const other = await t.newTenant({ name: 'Neighbour Co' });
  const foreign = await f.createProject({ name: 'Theirs' }, other);
  const before = await f.storedProject(foreign, other.companyId);
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { name: 'Mine' }],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/projects/${foreign}`, { body });
    assert.equal(res.status, 404, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.deepEqual(await f.storedProject(foreign, other.companyId), before);
  assert.deepEqual((await t.request('GET', '/projects?q=Theirs')).body.data, []);

  const own = await f.createProject({ name: 'Read key target' });
  for (const [method, path, body] of [
    ['GET', '/projects', undefined],
    ['GET', `/projects/${own}`, undefined],
    ['POST', '/projects', { name: 'x', project_type_id: 1 }],
    ['PATCH', `/projects/${own}`, { name: 'x' }],
    ['DELETE', `/projects/${own}`, undefined],
  ] as const) {
    const res = await t.request(method, path, { key: 'read', body });
    assert.equal(res.status, 403, `${method} ${path}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.required_scope, 'write');
    assert.equal(res.headers.get('x-api-preview'), 'true');
  }
});

test('Idempotency-Key on POST /projects replays the first answer with the preview header', async () => {
  const body = { name: 'Once', project_type_id: await f.projectTypeId() };
  const headers = { 'idempotency-key': 'project-once' };
  const first = await t.request('POST', '/projects', { body, headers });
  assert.equal(first.status, 201, first.text);
  const again = await t.request('POST', '/projects', { body, headers });
  assert.equal(again.status, 201);
  assert.equal(again.text, first.text);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  assert.equal(again.headers.get('x-api-preview'), 'true');
  assert.equal((await t.db.db.selectFrom('projects').select('id').where('name', '=', 'Once').execute()).length, 1);
});
