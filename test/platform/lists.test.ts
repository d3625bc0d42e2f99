import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type Response, type TenantFixture } from '../helpers.ts';

const t = await createTestApp();
const code = (res: Response) => res.body?.error?.code;

/** Inserts clients straight into the table; returns their ids in insertion order. */
async function insertClients(tenant: TenantFixture, names: string[], status = 'active'): Promise<number[]> {
  const rows = await t.db.db
    .insertInto('clients')
    .values(
      names.map((name) => ({ company_id: tenant.companyId, name, status, timing_required: 0, topic_required: 0 })),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

async function expectError(path: string, status: number, errorCode: string, tenant?: TenantFixture) {
  const res = await t.request('GET', path, { tenant });
  assert.equal(res.status, status, `${path}: ${res.text}`);
  assert.equal(code(res), errorCode, path);
  return res;
}

/** Follows next_cursor to the end; `between` runs before each further page. */
async function walk(tenant: TenantFixture, first: string, between: (page: number) => Promise<void> = async () => {}) {
  const seen: number[] = [];
  let res = await t.request('GET', first, { tenant });
  assert.equal(res.status, 200, res.text);
  for (let page = 1; ; page++) {
    seen.push(...res.body.data.map((c: { id: number }) => c.id));
    if (!res.body.meta.next_cursor) break;
    await between(page);
    res = await t.request('GET', `/clients?limit=2&cursor=${encodeURIComponent(res.body.meta.next_cursor)}`, {
      tenant,
    });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      Object.keys(res.body.meta).sort(),
      ['has_more', 'limit', 'next_cursor'],
      'a cursor page has no total or offset',
    );
  }
  return { seen, last: res };
}

test('limit: default 50, 1-200 accepted, 0 and 201 refused', async () => {
  const tenant = await t.newTenant();
  await insertClients(
    tenant,
    Array.from({ length: 60 }, (_, i) => `C${i}`),
  );
  const page = await t.request('GET', '/clients', { tenant });
  assert.equal(page.body.data.length, 50);
  assert.deepEqual(
    { ...page.body.meta, next_cursor: typeof page.body.meta.next_cursor },
    { total: 60, limit: 50, offset: 0, has_more: true, next_cursor: 'string' },
  );
  assert.equal((await t.request('GET', '/clients?limit=200', { tenant })).body.data.length, 60);
  assert.equal((await t.request('GET', '/clients?limit=1', { tenant })).body.data.length, 1);
  for (const bad of ['0', '201', 'abc', '-1', '2.5']) {
    const res = await expectError(`/clients?limit=${bad}`, 400, 'VALIDATION_ERROR', tenant);
    assert.equal(res.body.error.details.errors[0].field, 'limit');
  }
  await expectError('/contacts?limit=201', 400, 'VALIDATION_ERROR', tenant);
});

test('offset: 0-10000, 10001 refused; meta reports the page position', async () => {
  const tenant = await t.newTenant();
  const ids = await insertClients(tenant, ['a', 'b', 'c', 'd', 'e']);
  const page = await t.request('GET', '/clients?offset=2&limit=2', { tenant });
  assert.deepEqual(
    page.body.data.map((c: { id: number }) => c.id),
    ids.slice(2, 4),
  );
  assert.deepEqual(page.body.meta.offset, 2);
  assert.equal(page.body.meta.has_more, true);
  const last = await t.request('GET', '/clients?offset=4&limit=2', { tenant });
  assert.deepEqual(
    { has_more: last.body.meta.has_more, next_cursor: last.body.meta.next_cursor },
    { has_more: false, next_cursor: null },
  );
  assert.equal((await t.request('GET', '/clients?offset=10000', { tenant })).status, 200);
  await expectError('/clients?offset=10001', 400, 'VALIDATION_ERROR', tenant);
  await expectError('/clients?offset=-1', 400, 'VALIDATION_ERROR', tenant);
});

test('meta.total is exact up to 10000 and the text "10000+" past it', async () => {
  const tenant = await t.newTenant();
  await sql`insert into clients (company_id, name) select ${tenant.companyId}::uuid, 'Bulk ' || g from generate_series(1, 10000) g`.execute(
    t.db.db,
  );
  const exact = await t.request('GET', '/clients?limit=1', { tenant });
  assert.equal(exact.body.meta.total, 10000);
  await insertClients(tenant, ['One more']);
  const capped = await t.request('GET', '/clients?limit=1', { tenant });
  assert.equal(capped.status, 200);
  assert.equal(capped.body.meta.total, '10000+');
  const far = await t.request('GET', '/clients?offset=10000&limit=5', { tenant });
  assert.deepEqual(
    far.body.data.map((c: { name: string }) => c.name),
    ['One more'],
  );
  assert.equal(far.body.meta.total, '10000+');
  const filtered = await t.request('GET', '/clients?limit=1&name=One%20more', { tenant });
  assert.equal(filtered.body.meta.total, 1, 'the total follows the filters');
});

test('sort: field name, "-" for descending; unknown fields refused', async () => {
  const tenant = await t.newTenant();
  await insertClients(tenant, ['bravo', 'alpha', 'charlie']);
  const names = async (path: string) =>
    (await t.request('GET', path, { tenant })).body.data.map((c: { name: string }) => c.name);
  assert.deepEqual(await names('/clients?sort=name'), ['alpha', 'bravo', 'charlie']);
  assert.deepEqual(await names('/clients?sort=-name'), ['charlie', 'bravo', 'alpha']);
  assert.deepEqual(await names('/clients?sort=-id'), ['charlie', 'alpha', 'bravo']);
  assert.deepEqual(await names('/clients'), ['bravo', 'alpha', 'charlie']);
  for (const bad of ['bogus', '--name', 'name,id', 'vat_code']) {
    const res = await expectError(`/clients?sort=${bad}`, 400, 'VALIDATION_ERROR', tenant);
    assert.equal(res.body.error.details.errors[0].field, 'sort');
  }
  await expectError('/contacts?sort=surname', 400, 'VALIDATION_ERROR', tenant);
});

test('cursor walk survives inserts and deletes between pages (by id)', async () => {
  const tenant = await t.newTenant();
  const ids = await insertClients(tenant, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']);
  const removed = new Set<number>();
  const { seen, last } = await walk(tenant, '/clients?limit=2', async (page) => {
    await insertClients(tenant, [`new ${page}`]);
    // Delete the anchor of the page just read and one row not yet read.
    const victims = [ids[page * 2 - 1]!, ids[ids.length - page]!];
    for (const id of victims) removed.add(id);
    await t.db.db
      .updateTable('clients')
      .set({ deleted_at: sql`now()` as never })
      .where('company_id', '=', tenant.companyId)
      .where('id', 'in', victims)
      .execute();
  });
  const throughout = ids.filter((id) => !removed.has(id));
  for (const id of throughout) assert.equal(seen.filter((s) => s === id).length, 1, `client ${id} seen exactly once`);
  assert.equal(new Set(seen).size, seen.length, 'no row repeated');
  assert.equal(last.body.meta.has_more, false);
  assert.equal(last.body.meta.next_cursor, null);
});

test('cursor walk by a non-unique sort field, descending, with changes between pages', async () => {
  const tenant = await t.newTenant();
  const ids = await insertClients(tenant, ['m', 'm', 'm', 'k', 'k', 'z', 'a']);
  const removed = new Set<number>();
  const { seen } = await walk(tenant, '/clients?limit=2&sort=-name', async (page) => {
    await insertClients(tenant, ['m', 'zz', 'b']);
    removed.add(ids[page]!);
    await t.db.db
      .updateTable('clients')
      .set({ deleted_at: sql`now()` as never })
      .where('company_id', '=', tenant.companyId)
      .where('id', '=', ids[page]!)
      .execute();
  });
  for (const id of ids.filter((i) => !removed.has(i)))
    assert.equal(seen.filter((s) => s === id).length, 1, `client ${id} seen exactly once`);
  assert.equal(new Set(seen).size, seen.length);
  const byTime = await walk(tenant, '/clients?limit=2&sort=-created_at');
  const live = await t.db.db
    .selectFrom('clients')
    .select('id')
    .where('company_id', '=', tenant.companyId)
    .where('deleted_at', 'is', null)
    .execute();
  assert.deepEqual(
    [...byTime.seen].sort(),
    live.map((r) => r.id).sort(),
    'a timestamp keyset walks every live row once',
  );
});

test('a cursor keeps its filters and sort; other filters or sort with it are INVALID_CURSOR', async () => {
  const tenant = await t.newTenant();
  const prospects = await insertClients(tenant, ['p1', 'p2', 'p3'], 'prospect');
  await insertClients(tenant, ['a1', 'a2']);
  const first = await t.request('GET', '/clients?status=prospect&limit=1&sort=-id', { tenant });
  const cursor = encodeURIComponent(first.body.meta.next_cursor);
  const reused = await t.request('GET', `/clients?limit=5&cursor=${cursor}`, { tenant });
  assert.deepEqual(
    reused.body.data.map((c: { id: number }) => c.id),
    [prospects[1], prospects[0]],
  );
  const same = await t.request('GET', `/clients?status=prospect&sort=-id&limit=5&cursor=${cursor}`, { tenant });
  assert.deepEqual(same.body.data, reused.body.data);
  await expectError(`/clients?status=active&cursor=${cursor}`, 400, 'INVALID_CURSOR', tenant);
  await expectError(`/clients?status=prospect&cursor=${cursor}`, 400, 'INVALID_CURSOR', tenant);
  await expectError(`/clients?status=prospect&sort=id&cursor=${cursor}`, 400, 'INVALID_CURSOR', tenant);
  await expectError(`/clients?sort=-id&cursor=${cursor}`, 400, 'INVALID_CURSOR', tenant);
});

test('INVALID_CURSOR: tampered, malformed, another company, another list', async () => {
  const tenant = await t.newTenant();
  const other = await t.newTenant();
  const [clientId] = await insertClients(tenant, ['x', 'y', 'z']);
  await insertClients(other, ['o1', 'o2']);
  const cursor: string = (await t.request('GET', '/clients?limit=1', { tenant })).body.meta.next_cursor;
  const [body, mac] = cursor.split('.') as [string, string];
  const forged = Buffer.from(
    JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), v: [0, 0] }),
  ).toString('base64url');
  const bad = [
    `${forged}.${mac}`,
    `${body}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
    `${body}x.${mac}`,
    'abc',
    `${body}.`,
    '.',
    `${body}.${mac}.extra`,
    `${body}.${'é'.repeat(22)}`,
    `${body}.${'A'.repeat(21)}é`,
    Buffer.from('{"l":"clients"}').toString('base64url'),
  ];
  for (const raw of bad) await expectError(`/clients?cursor=${encodeURIComponent(raw)}`, 400, 'INVALID_CURSOR', tenant);
  const foreign: string = (await t.request('GET', '/clients?limit=1', { tenant: other })).body.meta.next_cursor;
  const res = await expectError(`/clients?cursor=${encodeURIComponent(foreign)}`, 400, 'INVALID_CURSOR', tenant);
  assert.deepEqual(Object.keys(res.body.error).sort(), ['code', 'message']);
  await t.db.db
    .insertInto('contacts')
    .values(['c1', 'c2'].map((name) => ({ company_id: tenant.companyId, client_id: clientId!, name, is_primary: 0 })))
    .execute();
  const contactsCursor: string = (await t.request('GET', '/contacts?limit=1', { tenant })).body.meta.next_cursor;
  assert.equal(
    (await t.request('GET', `/contacts?cursor=${encodeURIComponent(contactsCursor)}`, { tenant })).status,
    200,
  );
  await expectError(`/clients?cursor=${encodeURIComponent(contactsCursor)}`, 400, 'INVALID_CURSOR', tenant);
  await expectError(`/contacts?cursor=${encodeURIComponent(cursor)}`, 400, 'INVALID_CURSOR', tenant);
});

test('UNKNOWN_FILTER_FIELD for query parameters a list does not know', async () => {
  for (const path of ['/clients?stauts=active', '/clients?status=active&client_id=1', '/contacts?status=active']) {
    const res = await expectError(path, 400, 'UNKNOWN_FILTER_FIELD');
    assert.ok(['stauts', 'client_id', 'status'].includes(res.body.error.details.field), path);
  }
});

test('422 INVALID_FILTER_VALUE for filter values that do not parse', async () => {
  const cases: Array<[string, string]> = [
    ['/clients?default_person_id=abc', 'default_person_id'],
    ['/clients?status=bogus', 'status'],
    ['/clients?status=active,bogus', 'status'],
    ['/contacts?client_id=abc', 'client_id'],
    ['/contacts?client_id=0', 'client_id'],
  ];
  for (const [path, field] of cases) {
    const res = await expectError(path, 422, 'INVALID_FILTER_VALUE');
    assert.equal(res.body.error.details.field, field);
  }
  const ok = await t.request('GET', '/clients?status=active,prospect&default_person_id=1');
  assert.equal(ok.status, 200, ok.text);
});
