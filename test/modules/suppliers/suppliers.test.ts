import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();

const storedSupplier = (id: number, companyId = t.tenant.companyId) =>
  t.db.db
    .selectFrom('suppliers')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .executeTakeFirst();

async function typeId(name: string, tenant: TenantFixture = t.tenant): Promise<number> {
  const row = await t.db.db
    .selectFrom('supplier_types')
    .select('id')
    .where('company_id', '=', tenant.companyId)
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function createSupplier(body: Record<string, unknown>, tenant?: TenantFixture): Promise<number> {
  const res = await t.request('POST', '/suppliers', { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

const FULL = {
  name: 'Acme Cleaning Oy',
  company_number: '1234567-8',
  vat_number: 'FI12345678',
  email: 'billing@acme.example',
  phone: '+358 40 123 4567',
  address_street: 'Main street 1',
  address_city: 'Helsinki',
  address_zip: '00100',
  address_country_code: 'fi',
  iban: 'fi21 1234 5600 0007 85',
  payment_term_days: 14,
};

test('create, read, list, update and delete a supplier (preview resource)', async () => {
  const subcontractor = await typeId('Subcontractor');
  const created = await t.request('POST', '/suppliers', {
    key: 'write',
    body: { ...FULL, supplier_type_id: subcontractor },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('x-api-preview'), 'true');
  const supplier = created.body.data;
  assert.deepEqual(supplier, {
    id: supplier.id,
    ...FULL,
    supplier_type_id: subcontractor,
    status: 'active',
    address_country_code: 'FI',
    iban: 'FI2112345600000785',
    created_at: supplier.created_at,
    updated_at: supplier.updated_at,
  });
  assert.equal(created.headers.get('etag'), `"${supplier.updated_at}"`);
  const row = await storedSupplier(supplier.id);
  assert.equal(row?.iban, 'FI2112345600000785');
  assert.equal(row?.supplier_type_id, subcontractor);
  assert.equal(row?.deleted_at, null);

  const read = await t.request('GET', `/suppliers/${supplier.id}`, { key: 'write' });
  // The spec's row reads "GET/POST/PATCH/DELETE, write": a read key does not reach it (decision 0050).
  const readKey = await t.request('GET', `/suppliers/${supplier.id}`, { key: 'read' });
  assert.deepEqual(
    [readKey.status, readKey.body.error.code, readKey.body.error.details],
    [403, 'FORBIDDEN', { required_scope: 'write' }],
  );
  assert.equal(read.status, 200, read.text);
  assert.equal(read.headers.get('x-api-preview'), 'true');
  assert.deepEqual(read.body.data, supplier);

  const patched = await t.request('PATCH', `/suppliers/${supplier.id}`, {
    key: 'write',
    body: { status: 'inactive', iban: '', email: null, supplier_type_id: null },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.status, 'inactive');
  assert.equal(patched.body.data.iban, null);
  assert.equal(patched.body.data.email, null);
  assert.equal(patched.body.data.supplier_type_id, null);
  assert.equal(patched.body.data.name, FULL.name);
  assert.ok(patched.body.data.updated_at > supplier.updated_at);
  const afterPatch = await storedSupplier(supplier.id);
  assert.equal(afterPatch?.status, 'inactive');
  assert.equal(afterPatch?.iban, null);

  const empty = await t.request('PATCH', `/suppliers/${supplier.id}`, { body: {} });
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body.data, patched.body.data);

  const deleted = await t.request('DELETE', `/suppliers/${supplier.id}`, { key: 'write' });
  assert.equal(deleted.status, 204, deleted.text);
  assert.notEqual((await storedSupplier(supplier.id))?.deleted_at, null);
  for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
    const gone: { status: number; text: string; body: any } = await t.request(method, `/suppliers/${supplier.id}`, {
      body,
    });
    assert.equal(gone.status, 404, `${method} ${gone.text}`);
    assert.equal(gone.body.error.code, 'NOT_FOUND');
  }
  const listed = await t.request('GET', `/suppliers?q=${encodeURIComponent('Acme Cleaning')}`);
  assert.deepEqual(listed.body.data, []);
});

test('read keys may not write; write keys may', async () => {
  const refused = await t.request('POST', '/suppliers', { key: 'read', body: { name: 'Nope' } });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'FORBIDDEN');
  const personal = await t.request('POST', '/suppliers', { key: 'personal', body: { name: 'Member added' } });
  assert.equal(personal.status, 201, personal.text);
});

test('filters: status, supplier_type_id and q (name, numbers, e-mail)', async () => {
  const goods = await typeId('Goods');
  const services = await typeId('Services');
  const a = await createSupplier({ name: 'Filter Paper Ltd', supplier_type_id: goods, vat_number: 'GB999' });
  const b = await createSupplier({ name: 'Filter Consulting', supplier_type_id: services, status: 'inactive' });
  const c = await createSupplier({ name: 'Filter 50% Off', email: 'deals@filter.example' });
  const ids = async (query: string) => {
    const res = await t.request('GET', `/suppliers?${query}`, { key: 'write' });
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((s: { id: number }) => s.id);
  };
  assert.deepEqual(await ids('q=filter&sort=id'), [a, b, c]);
  assert.deepEqual(await ids('q=filter&status=inactive'), [b]);
  assert.deepEqual(await ids('q=filter&status=active,inactive&supplier_type_id=' + goods), [a]);
  assert.deepEqual(await ids('q=gb999'), [a]);
  assert.deepEqual(await ids('q=deals%40filter'), [c]);
  assert.deepEqual(await ids('q=50%25'), [c], 'a % in q is a literal, not a wildcard');
  assert.deepEqual(await ids('q=filter&status=active,inactive&sort=name'), [c, b, a]);
});

test('list query errors: bad filter value 422, unknown parameter 400, bad cursor 400', async () => {
  const badStatus = await t.request('GET', '/suppliers?status=bogus');
  assert.equal(badStatus.status, 422, badStatus.text);
  assert.equal(badStatus.body.error.code, 'INVALID_FILTER_VALUE');
  const badType = await t.request('GET', '/suppliers?supplier_type_id=abc');
  assert.equal(badType.status, 422, badType.text);
  assert.equal(badType.body.error.code, 'INVALID_FILTER_VALUE');
  const unknown = await t.request('GET', '/suppliers?colour=red');
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
  const badCursor = await t.request('GET', '/suppliers?cursor=not-a-cursor');
  assert.equal(badCursor.status, 400);
  assert.equal(badCursor.body.error.code, 'INVALID_CURSOR');
});

test('cursor mode walks every page once, in order', async () => {
  const made: number[] = [];
  for (let i = 0; i < 5; i++) made.push(await createSupplier({ name: `Paged supplier ${i}` }));
  const first = await t.request('GET', '/suppliers?q=Paged%20supplier&limit=2');
  assert.equal(first.status, 200, first.text);
  const seen: number[] = first.body.data.map((s: { id: number }) => s.id);
  let cursor: string | null = first.body.meta.next_cursor;
  while (cursor) {
    const page = await t.request('GET', `/suppliers?limit=2&cursor=${encodeURIComponent(cursor)}`);
    assert.equal(page.status, 200, page.text);
    assert.equal(page.body.meta.total, undefined);
    seen.push(...page.body.data.map((s: { id: number }) => s.id));
    cursor = page.body.meta.next_cursor;
  }
  assert.deepEqual(seen, made);
});

test('supplier_type_id must name an active supplier type of the company: 400 INVALID_SUPPLIER_TYPE', async () => {
  const other = await t.newTenant({ name: 'Type Other Co' });
  const foreign = await typeId('Goods', other);
  for (const bad of [foreign, 2147483000]) {
    const res = await t.request('POST', '/suppliers', { body: { name: 'Typed', supplier_type_id: bad } });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, 'INVALID_SUPPLIER_TYPE');
    assert.equal(res.body.error.details.field, 'supplier_type_id');
  }
  const office = await typeId('Office and facilities');
  const id = await createSupplier({ name: 'Keeps its type', supplier_type_id: office });
  const off = await t.request('PATCH', `/supplier-types/${office}`, { body: { status: 'inactive' } });
  assert.equal(off.status, 200, off.text);
  const fresh = await t.request('POST', '/suppliers', { body: { name: 'New', supplier_type_id: office } });
  assert.equal(fresh.status, 400);
  assert.equal(fresh.body.error.code, 'INVALID_SUPPLIER_TYPE');
  // Re-sending the type the supplier already has is not a new assignment.
  const kept = await t.request('PATCH', `/suppliers/${id}`, {
    body: { supplier_type_id: office, name: 'Still typed' },
  });
  assert.equal(kept.status, 200, kept.text);
  assert.equal(kept.body.data.supplier_type_id, office);
  const other2 = await t.request('PATCH', `/suppliers/${id}`, { body: { supplier_type_id: foreign } });
  assert.equal(other2.status, 400);
  assert.equal(other2.body.error.code, 'INVALID_SUPPLIER_TYPE');
  assert.equal((await storedSupplier(id))?.supplier_type_id, office);
  await t.request('PATCH', `/supplier-types/${office}`, { body: { status: 'active' } });
});

test('validation: unknown fields, wrong types, bounds, NUL bytes, bad IBAN, bad e-mail are 400 and store nothing', async () => {
  const before = await t.db.db
    .selectFrom('suppliers')
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  const bad: Array<[Record<string, unknown>, string]> = [
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 'x'.repeat(256) }, 'name'],
    [{ name: 'Nul\u0000name' }, 'name'],
    [{ name: 'X', company_id: t.tenant.companyId }, 'company_id'],
    [{ name: 'X', status: 'archived' }, 'status'],
    [{ name: 'X', supplier_type_id: 'one' }, 'supplier_type_id'],
    [{ name: 'X', supplier_type_id: 99999999999 }, 'supplier_type_id'],
    [{ name: 'X', payment_term_days: 366 }, 'payment_term_days'],
    [{ name: 'X', payment_term_days: 1.5 }, 'payment_term_days'],
    [{ name: 'X', email: 'not-an-email' }, 'email'],
    [{ name: 'X', phone: 'call me' }, 'phone'],
    [{ name: 'X', address_country_code: 'FIN' }, 'address_country_code'],
    [{ name: 'X', vat_number: 'V'.repeat(51) }, 'vat_number'],
    [{ name: 'X', iban: 'FI21 1234 5600 0007 86' }, 'iban'],
    [{ name: 'X', iban: 'not an iban' }, 'iban'],
  ];
  for (const [body, field] of bad) {
    const res = await t.request('POST', '/suppliers', { body });
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.ok(JSON.stringify(res.body.error).includes(field), `${field} not named: ${res.text}`);
  }
  const notJson = await t.request('POST', '/suppliers', { body: '{"name":' });
  assert.equal(notJson.status, 400);
  const after = await t.db.db
    .selectFrom('suppliers')
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  assert.equal(after.n, before.n);
  const id = await createSupplier({ name: 'Patch target' });
  const badPatch = await t.request('PATCH', `/suppliers/${id}`, { body: { name: 'ok', deleted_at: null } });
  assert.equal(badPatch.status, 400);
  assert.equal(badPatch.body.error.code, 'VALIDATION_ERROR');
  const badId = await t.request('GET', '/suppliers/abc');
  assert.equal(badId.status, 400);
  const hugeId = await t.request('GET', '/suppliers/99999999999');
  assert.equal(hugeId.status, 400);
});

test('tenant isolation: another company never sees, changes or deletes our suppliers', async () => {
  const other = await t.newTenant({ name: 'Supplier Neighbour Co' });
  const ours = await createSupplier({ name: 'Isolated supplier' });
  const theirs = await createSupplier({ name: 'Their supplier' }, other);
  for (const [method, body] of [['GET'], ['PATCH', { name: 'Stolen' }], ['DELETE']] as const) {
    const res = await t.request(method, `/suppliers/${ours}`, { tenant: other, body });
    assert.equal(res.status, 404, `${method} ${res.text}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  const row = await storedSupplier(ours);
  assert.equal(row?.name, 'Isolated supplier');
  assert.equal(row?.deleted_at, null);
  const theirList = await t.request('GET', '/suppliers?q=supplier', { tenant: other });
  assert.deepEqual(
    theirList.body.data.map((s: { id: number }) => s.id),
    [theirs],
  );
  assert.equal((await storedSupplier(theirs, other.companyId))?.name, 'Their supplier');
});

test('Idempotency-Key on POST /suppliers replays the first answer; another body is refused; a running one conflicts', async () => {
  const body = { name: 'Once only supplier', payment_term_days: 30 };
  const headers = { 'idempotency-key': 'sup-create-1' };
  const first = await t.request('POST', '/suppliers', { body, headers });
  assert.equal(first.status, 201, first.text);
  const again = await t.request('POST', '/suppliers', { body, headers });
  assert.equal(again.status, 201);
  assert.equal(again.text, first.text);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  const rows = await t.db.db
    .selectFrom('suppliers')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('name', '=', 'Once only supplier')
    .execute();
  assert.equal(rows.length, 1);
  const reused = await t.request('POST', '/suppliers', { body: { name: 'Something else' }, headers });
  assert.equal(reused.status, 409);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');

  const runningBody = { name: 'In flight supplier' };
  await t.db.db
    .insertInto('idempotency_keys')
    .values({
      company_id: t.tenant.companyId,
      api_key_id: t.tenant.keyIds.admin,
      key: 'sup-running',
      state: 'running',
      request_hash: createHash('sha256')
        .update(`POST /api/v3/suppliers\n${JSON.stringify(runningBody)}`)
        .digest('hex'),
      expires_at: sql`now() + interval '1 hour'` as never,
    } as never)
    .execute();
  const running = await t.request('POST', '/suppliers', {
    body: runningBody,
    headers: { 'idempotency-key': 'sup-running' },
  });
  assert.equal(running.status, 409, running.text);
  assert.equal(running.body.error.code, 'IDEMPOTENCY_CONFLICT');
  assert.deepEqual(
    await t.db.db.selectFrom('suppliers').select('id').where('name', '=', 'In flight supplier').execute(),
    [],
  );
});
