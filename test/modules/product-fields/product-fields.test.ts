import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();

const stored = (id: number, companyId = t.tenant.companyId) =>
  t.db.db
    .selectFrom('product_fields')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();

async function createField(body: Record<string, unknown>, tenant?: TenantFixture): Promise<number> {
  const res = await t.request('POST', '/product-fields', { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

async function systemField(kind: string): Promise<number> {
  const res = await t.request('GET', `/product-fields?is_system=true&kind=${kind}`);
  assert.equal(res.body.data.length, 1, res.text);
  return res.body.data[0].id;
}

test('every company starts with its read-only system entries', async () => {
  const res = await t.request('GET', '/product-fields?is_system=true', { key: 'write' });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  assert.deepEqual(
    res.body.data.map((f: Record<string, unknown>) => [f.kind, f.code, f.name, f.status, f.is_system]),
    [
      ['cost_center', 'GENERAL', 'General', 'active', true],
      ['billing_project', 'INTERNAL', 'Internal work', 'active', true],
    ],
  );
  assert.deepEqual(res.body.meta, { total: 2, limit: 50, offset: 0, has_more: false });
  const general = res.body.data[0].id;
  for (const [method, body] of [
    ['PATCH', { name: 'Renamed' }],
    ['PATCH', {}],
    ['DELETE', undefined],
  ] as const) {
    const refused = await t.request(method, `/product-fields/${general}`, { body });
    if (method === 'PATCH' && Object.keys(body ?? {}).length === 0) {
      assert.equal(refused.status, 200, 'an empty PATCH changes nothing and answers the record');
      continue;
    }
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error.code, 'PRODUCT_FIELD_READ_ONLY');
  }
  const row = await stored(general);
  assert.equal(row?.name, 'General');
  assert.equal(row?.deleted_at, null);
});

test('create, read, list, update and delete a product field', async () => {
  const created = await t.request('POST', '/product-fields', {
    key: 'write',
    body: { kind: 'article', code: '3010', name: 'Consulting services' },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('x-api-preview'), 'true');
  const field = created.body.data;
  assert.deepEqual(field, {
    id: field.id,
    kind: 'article',
    code: '3010',
    name: 'Consulting services',
    status: 'active',
    is_system: false,
    created_at: field.created_at,
    updated_at: field.updated_at,
  });
  const row = await stored(field.id);
  assert.equal(row?.kind, 'article');
  assert.equal(row?.is_system, false);
  const read = await t.request('GET', `/product-fields/${field.id}`, { key: 'write' });
  // The spec's row reads "GET/POST/PATCH/DELETE, write": a read key does not reach it (decision 0050).
  const readKey = await t.request('GET', `/product-fields/${field.id}`, { key: 'read' });
  assert.deepEqual(
    [readKey.status, readKey.body.error.code, readKey.body.error.details],
    [403, 'FORBIDDEN', { required_scope: 'write' }],
  );
  assert.deepEqual(read.body.data, field);
  const listed = await t.request('GET', '/product-fields?kind=article&q=consult');
  assert.deepEqual(listed.body.data, [field]);

  const patched = await t.request('PATCH', `/product-fields/${field.id}`, {
    key: 'write',
    body: { code: '3011', name: 'Consulting', status: 'inactive' },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.code, '3011');
  assert.equal(patched.body.data.status, 'inactive');
  assert.equal(patched.body.data.kind, 'article');
  assert.equal((await stored(field.id))?.code, '3011');
  const kindChange = await t.request('PATCH', `/product-fields/${field.id}`, { body: { kind: 'resource' } });
  assert.equal(kindChange.status, 400);
  assert.equal(kindChange.body.error.code, 'VALIDATION_ERROR');

  const deleted = await t.request('DELETE', `/product-fields/${field.id}`, { key: 'write' });
  assert.equal(deleted.status, 204, deleted.text);
  assert.notEqual((await stored(field.id))?.deleted_at, null);
  const gone = await t.request('GET', `/product-fields/${field.id}`);
  assert.equal(gone.status, 404);
  assert.equal(gone.body.error.code, 'NOT_FOUND');
  // Its code is free again once deleted.
  await createField({ kind: 'article', code: '3011', name: 'Consulting again' });
});

test('codes are unique per kind among live entries (case-insensitive): 409 PRODUCT_FIELD_EXISTS', async () => {
  const a = await createField({ kind: 'resource', code: 'DEV-1', name: 'Developer' });
  const dup = await t.request('POST', '/product-fields', { body: { kind: 'resource', code: 'dev-1', name: 'Dup' } });
  assert.equal(dup.status, 409, dup.text);
  assert.equal(dup.body.error.code, 'PRODUCT_FIELD_EXISTS');
  await createField({ kind: 'article', code: 'DEV-1', name: 'Same code, other kind' });
  const b = await createField({ kind: 'resource', code: 'DEV-2', name: 'Developer 2' });
  const clash = await t.request('PATCH', `/product-fields/${b}`, { body: { code: 'Dev-1' } });
  assert.equal(clash.status, 409);
  assert.equal(clash.body.error.code, 'PRODUCT_FIELD_EXISTS');
  assert.equal((await stored(b))?.code, 'DEV-2');
  const same = await t.request('PATCH', `/product-fields/${a}`, { body: { code: 'DEV-1', name: 'Dev' } });
  assert.equal(same.status, 200, same.text);
});

test('filters and list errors; offset-only', async () => {
  const inactive = await createField({ kind: 'cost_center', code: 'CC-9', name: 'Old centre', status: 'inactive' });
  const res = await t.request('GET', '/product-fields?kind=cost_center&status=inactive&is_system=false');
  assert.deepEqual(
    res.body.data.map((f: { id: number }) => f.id),
    [inactive],
  );
  const sorted = await t.request('GET', '/product-fields?kind=cost_center,billing_project&sort=-code');
  assert.equal(sorted.status, 200, sorted.text);
  const codes = sorted.body.data.map((f: { code: string }) => f.code);
  assert.deepEqual(codes, [...codes].sort().reverse());
  for (const [query, status, code] of [
    ['kind=vendor', 422, 'INVALID_FILTER_VALUE'],
    ['is_system=maybe', 422, 'INVALID_FILTER_VALUE'],
    ['colour=red', 400, 'UNKNOWN_FILTER_FIELD'],
    ['cursor=abc', 400, 'INVALID_CURSOR'],
    ['sort=kind', 400, 'VALIDATION_ERROR'],
  ] as const) {
    const bad = await t.request('GET', `/product-fields?${query}`);
    assert.equal(bad.status, status, `${query}: ${bad.text}`);
    assert.equal(bad.body.error.code, code);
  }
});

test('validation: 400 on missing, unknown, wrong-typed, oversize or NUL input; nothing stored', async () => {
  const count = async () =>
    (
      await t.db.db
        .selectFrom('product_fields')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  const before = await count();
  for (const body of [
    {},
    { kind: 'article', name: 'No code' },
    { kind: 'vendor', code: 'X', name: 'Bad kind' },
    { kind: 'article', code: '', name: 'Empty code' },
    { kind: 'article', code: 'X'.repeat(51), name: 'Long code' },
    { kind: 'article', code: 'has;semicolon', name: 'Bad code' },
    { kind: 'article', code: 'X', name: 'n'.repeat(256) },
    { kind: 'article', code: 'X', name: 'nul\u0000' },
    { kind: 'article', code: 'X', name: 'System?', is_system: true },
    { kind: 'article', code: 'X', name: 'Status', status: 'deleted' },
    { kind: 'article', code: 12, name: 'Number code' },
  ]) {
    const res = await t.request('POST', '/product-fields', { body });
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 60)}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  assert.equal(await count(), before);
  const huge = await t.request('GET', '/product-fields/99999999999');
  assert.equal(huge.status, 400);
});

test('scopes: read keys cannot write; a plain member personal key cannot change the lookups', async () => {
  const readKey = await t.request('POST', '/product-fields', {
    key: 'read',
    body: { kind: 'article', code: 'R', name: 'R' },
  });
  assert.equal(readKey.status, 403);
  assert.equal(readKey.body.error.code, 'FORBIDDEN');
  const member = await t.request('POST', '/product-fields', {
    key: 'personal',
    body: { kind: 'article', code: 'M', name: 'M' },
  });
  assert.equal(member.status, 403);
  assert.equal(member.body.error.details.required_role, 'owner or admin');
  const owner = await t.request('POST', '/product-fields', {
    key: 'personalAdmin',
    body: { kind: 'article', code: 'OWN', name: 'Owner made' },
  });
  assert.equal(owner.status, 201, owner.text);
});

test('tenant isolation: another company cannot see, change or delete our entries', async () => {
  const other = await t.newTenant({ name: 'PF Neighbour Co' });
  const ours = await createField({ kind: 'article', code: 'ISO', name: 'Isolated' });
  const theirs = await createField({ kind: 'article', code: 'ISO', name: 'Theirs, same code' }, other);
  for (const [method, body] of [['GET'], ['PATCH', { name: 'Stolen' }], ['DELETE']] as const) {
    const res = await t.request(method, `/product-fields/${ours}`, { tenant: other, body });
    assert.equal(res.status, 404, `${method} ${res.text}`);
  }
  assert.equal((await stored(ours))?.name, 'Isolated');
  assert.equal((await stored(ours))?.deleted_at, null);
  const theirList = await t.request('GET', '/product-fields?q=ISO', { tenant: other });
  assert.deepEqual(
    theirList.body.data.map((f: { id: number }) => f.id),
    [theirs],
  );
  assert.notEqual(
    await systemField('cost_center'),
    (await t.request('GET', '/product-fields?is_system=true&kind=cost_center', { tenant: other })).body.data[0].id,
  );
});

test('Idempotency-Key on POST /product-fields replays; another body is refused; a running one conflicts', async () => {
  const body = { kind: 'billing_project', code: 'IDEM', name: 'Once' };
  const headers = { 'idempotency-key': 'pf-create-1' };
  const first = await t.request('POST', '/product-fields', { body, headers });
  assert.equal(first.status, 201, first.text);
  const again = await t.request('POST', '/product-fields', { body, headers });
  assert.equal(again.status, 201);
  assert.equal(again.text, first.text);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  const reused = await t.request('POST', '/product-fields', { body: { ...body, code: 'IDEM2' }, headers });
  assert.equal(reused.status, 409);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
  const runningBody = { code: 'RUN', kind: 'article', name: 'In flight' }; // keys sorted, as the stored hash has them
  await t.db.db
    .insertInto('idempotency_keys')
    .values({
      company_id: t.tenant.companyId,
      api_key_id: t.tenant.keyIds.admin,
      key: 'pf-running',
      state: 'running',
      request_hash: createHash('sha256')
        .update(`POST /api/v3/product-fields\n${JSON.stringify(runningBody)}`)
        .digest('hex'),
      expires_at: sql`now() + interval '1 hour'` as never,
    } as never)
    .execute();
  const running = await t.request('POST', '/product-fields', {
    body: runningBody,
    headers: { 'idempotency-key': 'pf-running' },
  });
  assert.equal(running.status, 409, running.text);
  assert.equal(running.body.error.code, 'IDEMPOTENCY_CONFLICT');
  const rows = await t.db.db
    .selectFrom('product_fields')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('code', 'in', ['IDEM', 'RUN'])
    .execute();
  assert.equal(rows.length, 1);
});
