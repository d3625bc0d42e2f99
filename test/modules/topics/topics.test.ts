import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();

async function createTopic(body: Record<string, unknown>, tenant?: TenantFixture): Promise<number> {
  const res = await t.request('POST', '/topics', { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const storedTopic = (id: number, companyId = t.tenant.companyId) =>
  t.db.db.selectFrom('topics').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();

const countTopics = async () =>
  (
    await t.db.db
      .selectFrom('topics')
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;

test('create, read, list, update and delete a topic', async () => {
  const created = await t.request('POST', '/topics', { key: 'write', body: { name: 'Bookkeeping' } });
  assert.equal(created.status, 201, created.text);
  const topic = created.body.data;
  assert.deepEqual(Object.keys(topic).sort(), [
    'billable',
    'color',
    'created_at',
    'id',
    'name',
    'status',
    'updated_at',
  ]);
  assert.equal(topic.name, 'Bookkeeping');
  assert.equal(topic.status, 'active');
  assert.equal(topic.billable, 1);
  assert.equal(topic.color, null);
  assert.match(topic.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(created.headers.get('etag'), `"${topic.updated_at}"`);
  const row = await storedTopic(topic.id);
  assert.equal(row?.billable, 1);
  assert.equal(row?.status, 'active');
  assert.equal(row?.deleted_at, null);

  const read = await t.request('GET', `/topics/${topic.id}`, { key: 'read' });
  assert.equal(read.status, 200);
  assert.deepEqual(read.body.data, topic);

  const listed = await t.request('GET', '/topics?status=active&q=keep', { key: 'read' });
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.body.data, [topic]);
  assert.equal(listed.body.meta.total, 1);

  const patched = await t.request('PATCH', `/topics/${topic.id}`, {
    key: 'write',
    body: { billable: false, color: '#FF8800', status: 'inactive' },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.billable, 0);
  assert.equal(patched.body.data.color, '#FF8800');
  assert.equal(patched.body.data.status, 'inactive');
  assert.equal(patched.body.data.name, 'Bookkeeping');
  assert.ok(patched.body.data.updated_at > topic.updated_at);
  const afterPatch = await storedTopic(topic.id);
  assert.equal(afterPatch?.billable, 0);
  assert.equal(afterPatch?.color, '#FF8800');
  assert.equal(afterPatch?.status, 'inactive');

  const flagBack = await t.request('PATCH', `/topics/${topic.id}`, { body: { billable: 1 } });
  assert.equal(flagBack.body.data.billable, 1);
  const unchanged = await t.request('PATCH', `/topics/${topic.id}`, { body: {} });
  assert.equal(unchanged.status, 200);
  assert.deepEqual(unchanged.body.data, flagBack.body.data);

  const deleted = await t.request('DELETE', `/topics/${topic.id}`, { key: 'write' });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.text, '');
  assert.notEqual((await storedTopic(topic.id))?.deleted_at, null);
  const gone = await t.request('GET', `/topics/${topic.id}`);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'NOT_FOUND');
  assert.equal((await t.request('PATCH', `/topics/${topic.id}`, { body: { name: 'x' } })).status, 404);
  assert.equal((await t.request('DELETE', `/topics/${topic.id}`)).status, 404);
  assert.deepEqual((await t.request('GET', '/topics?q=Bookkeeping')).body.data, []);
});

test('billable accepts 0/1 and booleans on create and always answers 0/1', async () => {
  for (const [input, output] of [
    [0, 0],
    [1, 1],
    [true, 1],
    [false, 0],
  ] as const) {
    const res = await t.request('POST', '/topics', {
      body: { name: `Flag ${String(input)}`, billable: input, status: 'inactive', color: '#000000' },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.billable, output);
    assert.equal(res.body.data.status, 'inactive');
    assert.equal((await storedTopic(res.body.data.id))?.billable, output);
  }
});

const badBodies: Array<[string, Record<string, unknown>, string]> = [
  ['empty name', { name: '' }, 'name'],
  ['256-character name', { name: 'x'.repeat(256) }, 'name'],
  ['colour by name', { name: 'T', color: 'blue' }, 'color'],
  ['colour with alpha', { name: 'T', color: '#11223344' }, 'color'],
  ['unknown status', { name: 'T', status: 'archived' }, 'status'],
  ['billable of 2', { name: 'T', billable: 2 }, 'billable'],
  ['billable as text', { name: 'T', billable: 'true' }, 'billable'],
  ['unknown field', { name: 'T', rate: 10 }, 'rate'],
];

test('create refuses invalid bodies with 400 VALIDATION_ERROR and stores nothing', async () => {
  const before = await countTopics();
  for (const [why, body, field] of [...badBodies, ['missing name', { billable: 1 }, 'name'] as const]) {
    const res = await t.request('POST', '/topics', { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
    assert.ok(JSON.stringify(res.body.error.details.errors).includes(field), `${why}: ${res.text}`);
  }
  assert.equal(await countTopics(), before);
});

test('update refuses invalid bodies with 400 VALIDATION_ERROR and changes nothing', async () => {
  const id = await createTopic({ name: 'Steady' });
  const before = await storedTopic(id);
  for (const [why, body] of badBodies) {
    const res = await t.request('PATCH', `/topics/${id}`, { body });
    assert.equal(res.status, 400, `${why}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR', why);
  }
  assert.deepEqual(await storedTopic(id), before);
  const badId = await t.request('DELETE', '/topics/0');
  assert.equal(badId.status, 400);
  assert.equal(badId.body.error.code, 'VALIDATION_ERROR');
});

test('list query errors: bad filter value 422, unknown parameter 400, bad cursor 400', async () => {
  const badStatus = await t.request('GET', '/topics?status=bogus', { key: 'read' });
  assert.equal(badStatus.status, 422, badStatus.text);
  assert.equal(badStatus.body.error.code, 'INVALID_FILTER_VALUE');
  assert.equal(badStatus.body.error.details.field, 'status');
  const unknown = await t.request('GET', '/topics?billable=1');
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
  assert.equal(unknown.body.error.details.field, 'billable');
  const badCursor = await t.request('GET', '/topics?cursor=abc.def');
  assert.equal(badCursor.status, 400);
  assert.equal(badCursor.body.error.code, 'INVALID_CURSOR');
});

test('cursor pagination walks every page once, in order, keeping the filters', async () => {
  const active: number[] = [];
  for (let i = 1; i <= 5; i++) active.push(await createTopic({ name: `Paged ${i}` }));
  await createTopic({ name: 'Paged inactive', status: 'inactive' });
  const first = await t.request('GET', '/topics?q=Paged&status=active&limit=2', { key: 'read' });
  assert.equal(first.status, 200, first.text);
  assert.equal(first.body.meta.total, 5);
  const seen: number[] = first.body.data.map((x: { id: number }) => x.id);
  let cursor: string | null = first.body.meta.next_cursor;
  while (cursor) {
    const page = await t.request('GET', `/topics?limit=2&cursor=${encodeURIComponent(cursor)}`, { key: 'read' });
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(Object.keys(page.body.meta).sort(), ['has_more', 'limit', 'next_cursor']);
    seen.push(...page.body.data.map((x: { id: number }) => x.id));
    cursor = page.body.meta.next_cursor;
  }
  assert.deepEqual(seen, active);
});

test("another tenant's topic answers 404 on GET, PATCH and DELETE and stays untouched", async () => {
  const other = await t.newTenant({ name: 'Other Co' });
  const foreign = await createTopic({ name: 'Their topic' }, other);
  const before = await storedTopic(foreign, other.companyId);
  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { billable: 0 }],
    ['DELETE', undefined],
  ] as const) {
    const res = await t.request(method, `/topics/${foreign}`, { body });
    assert.equal(res.status, 404, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  assert.deepEqual(await storedTopic(foreign, other.companyId), before);
  assert.deepEqual((await t.request('GET', '/topics?q=Their')).body.data, []);
});

test('a read key cannot write: 403 FORBIDDEN naming the write scope', async () => {
  const id = await createTopic({ name: 'Guarded' });
  const before = await storedTopic(id);
  const total = await countTopics();
  const attempts = [
    ['POST', '/topics', { name: 'Nope' }],
    ['PATCH', `/topics/${id}`, { name: 'Nope' }],
    ['DELETE', `/topics/${id}`, undefined],
  ] as const;
  for (const [method, path, body] of attempts) {
    const res = await t.request(method, path, { key: 'read', body });
    assert.equal(res.status, 403, `${method}: ${res.text}`);
    assert.equal(res.body.error.code, 'FORBIDDEN');
    assert.equal(res.body.error.details.required_scope, 'write');
  }
  assert.deepEqual(await storedTopic(id), before);
  assert.equal(await countTopics(), total);
});

test('Idempotency-Key on POST /topics replays the same body with Idempotency-Replayed: true and creates one topic', async () => {
  const body = { name: 'Idempotent topic', billable: false };
  const headers = { 'idempotency-key': 'topic-create-1' };
  const first = await t.request('POST', '/topics', { body, headers });
  assert.equal(first.status, 201, first.text);
  assert.equal(first.headers.get('idempotency-replayed'), null);
  const again = await t.request('POST', '/topics', { body, headers });
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  assert.equal(again.text, first.text);
  assert.deepEqual(again.body, first.body);
  assert.equal(again.headers.get('etag'), first.headers.get('etag'));
  const rows = await t.db.db
    .selectFrom('topics')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('name', '=', 'Idempotent topic')
    .execute();
  assert.deepEqual(rows, [{ id: first.body.data.id }]);

  const otherKey = await t.request('POST', '/topics', { key: 'write', body, headers });
  assert.equal(otherKey.status, 201, 'the key is scoped to the API key');
  assert.notEqual(otherKey.body.data.id, first.body.data.id);

  const reused = await t.request('POST', '/topics', { body: { name: 'Different' }, headers });
  assert.equal(reused.status, 409);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
});

test('a repeat while the first request is still running is refused with 409 IDEMPOTENCY_CONFLICT', async () => {
  const body = { name: 'Still running' };
  // The claimed row of a first request that has not finished yet.
  await t.db.db
    .insertInto('idempotency_keys')
    .values({
      company_id: t.tenant.companyId,
      api_key_id: t.tenant.keyIds.admin,
      key: 'topic-running',
      state: 'running',
      request_hash: createHash('sha256')
        .update(`POST /api/v3/topics\n${JSON.stringify(body)}`)
        .digest('hex'),
      expires_at: sql`now() + interval '1 hour'` as never,
    } as never)
    .execute();
  const res = await t.request('POST', '/topics', { body, headers: { 'idempotency-key': 'topic-running' } });
  assert.equal(res.status, 409, res.text);
  assert.equal(res.body.error.code, 'IDEMPOTENCY_CONFLICT');
  assert.deepEqual(await t.db.db.selectFrom('topics').select('id').where('name', '=', 'Still running').execute(), []);
});
