import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });

const PROFILE = {
  name: 'Acme Billing OÜ',
  address: '1 Main Street\nTallinn',
  company_number: '12345678',
  vat_number: 'EE123456789',
  bank_1: 'First Bank',
  iban_1: 'GB82 WEST 1234 5698 7654 32',
  bank_2: 'Second Bank',
  iban_2: 'de89370400440532013000',
  logo_url: 'https://cdn.example.com/logo.png',
};

async function createSeller(body: Record<string, unknown>, tenant = t.tenant) {
  const res = await t.request('POST', '/invoice-sellers', { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

async function stored(id: number) {
  return t.db.db
    .selectFrom('invoice_sellers')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

test('POST stores the full profile; IBANs are kept compact in capitals', async () => {
  const res = await t.request('POST', '/invoice-sellers', { body: PROFILE });
  assert.equal(res.status, 201, res.text);
  const seller = res.body.data;
  assert.equal(seller.status, 'active');
  assert.equal(seller.name, PROFILE.name);
  assert.equal(seller.address, PROFILE.address);
  assert.equal(seller.iban_1, 'GB82WEST12345698765432');
  assert.equal(seller.iban_2, 'DE89370400440532013000');
  assert.equal(seller.logo_url, PROFILE.logo_url);
  assert.equal(res.headers.get('etag'), `"${seller.updated_at}"`);
  const row = await stored(seller.id);
  assert.equal(row.iban_1, 'GB82WEST12345698765432');
  assert.equal(row.vat_number, 'EE123456789');
  const minimal = await createSeller({ name: 'Minimal' });
  assert.equal(minimal.iban_1, null);
  assert.equal(minimal.logo_url, null);
});

test('POST refuses a bad IBAN checksum or shape and a logo that is not an https URL, naming the field', async () => {
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ name: 'X', iban_1: 'GB82WEST12345698765433' }, 'iban_1', 'INVALID_IBAN'],
    [{ name: 'X', iban_2: 'DE00370400440532013000' }, 'iban_2', 'INVALID_IBAN'],
    [{ name: 'X', iban_1: 'not an iban' }, 'iban_1', 'INVALID_IBAN'],
    [{ name: 'X', iban_1: '1234567890123456' }, 'iban_1', 'INVALID_IBAN'],
    [{ name: 'X', logo_url: 'http://cdn.example.com/logo.png' }, 'logo_url', 'INVALID_URL'],
    [{ name: 'X', logo_url: 'javascript:alert(1)' }, 'logo_url', 'INVALID_URL'],
    [{ name: 'X', logo_url: 'https://user:pw@cdn.example.com/x.png' }, 'logo_url', 'INVALID_URL'],
    [{ name: 'X', logo_url: 'logo.png' }, 'logo_url', 'INVALID_URL'],
  ];
  for (const [body, field, reason] of cases) {
    const res = await t.request('POST', '/invoice-sellers', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.equal(res.body.error.details.field, field);
    assert.equal(res.body.error.details.reason, reason);
  }
  for (const body of [{}, { name: '' }, { name: 'X', status: 'deleted' }, { name: 'X', iban: 'x' }]) {
    const res = await t.request('POST', '/invoice-sellers', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
  }
  const rows = await t.db.db
    .selectFrom('invoice_sellers')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('name', '=', 'X')
    .execute();
  assert.equal(rows.length, 0);
});

test('POST is idempotent with Idempotency-Key', async () => {
  const headers = { 'idempotency-key': 'seller-create-1' };
  const first = await t.request('POST', '/invoice-sellers', { headers, body: { name: 'Once' } });
  const second = await t.request('POST', '/invoice-sellers', { headers, body: { name: 'Once' } });
  assert.equal(first.status, 201);
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.equal(second.body.data.id, first.body.data.id);
});

test('every seller route needs the financials tier but PATCH of status and logo_url', async () => {
  const seller = await createSeller({ name: 'Gate' });
  const calls: Array<[string, string, unknown]> = [
    ['GET', '/invoice-sellers', undefined],
    ['GET', `/invoice-sellers/${seller.id}`, undefined],
    ['POST', '/invoice-sellers', { name: 'No' }],
    ['PATCH', `/invoice-sellers/${seller.id}`, { status: 'archived' }],
  ];
  for (const key of ['read', 'write', 'personal', 'personalAdmin'])
    for (const [method, path, body] of calls) {
      if (key === 'write' && method === 'PATCH') continue;
      const res = await t.request(method, path, { key, body });
      assert.equal(res.status, 403, `${method} ${path} ${key}`);
      assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    }
  assert.equal((await stored(seller.id)).status, 'active');
});

test('PATCH with a write key: status and logo_url are written, the profile is 403 and not read back', async () => {
  const seller = await createSeller(PROFILE);
  const res = await t.request('PATCH', `/invoice-sellers/${seller.id}`, {
    key: 'write',
    body: { status: 'archived', logo_url: 'https://cdn.example.com/new.png' },
  });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(
    { ...res.body.data, created_at: '', updated_at: '' },
    {
      id: seller.id,
      name: PROFILE.name,
      status: 'archived',
      logo_url: 'https://cdn.example.com/new.png',
      address: null,
      company_number: null,
      vat_number: null,
      bank_1: null,
      iban_1: null,
      bank_2: null,
      iban_2: null,
      endpoint_id: null,
      endpoint_scheme: null,
      phone: null,
      address_city: null,
      address_zip: null,
      created_at: '',
      updated_at: '',
    },
  );
  for (const [body, fields] of [
    [{ name: 'Renamed' }, ['name']],
    [{ status: 'active', iban_1: null, bank_2: 'Other' }, ['bank_2', 'iban_1']],
  ] as const) {
    const refused = await t.request('PATCH', `/invoice-sellers/${seller.id}`, { key: 'write', body });
    assert.equal(refused.status, 403, JSON.stringify(body));
    assert.equal(refused.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    assert.deepEqual(refused.body.error.details, { required_scope: 'financials', fields });
  }
  const row = await stored(seller.id);
  assert.deepEqual(
    [row.status, row.logo_url, row.name, row.iban_1, row.bank_2],
    ['archived', 'https://cdn.example.com/new.png', PROFILE.name, 'GB82WEST12345698765432', 'Second Bank'],
  );
});

test('PATCH archives, changes the profile, checks IBANs and honours an If-Match when sent', async () => {
  const seller = await createSeller({ name: 'Patchable', iban_1: 'EE382200221020145685' });
  const archived = await t.request('PATCH', `/invoice-sellers/${seller.id}`, { body: { status: 'archived' } });
  assert.equal(archived.status, 200, archived.text);
  assert.equal(archived.body.data.status, 'archived');
  assert.notEqual(archived.body.data.updated_at, seller.updated_at);

  const stale = await t.request('PATCH', `/invoice-sellers/${seller.id}`, {
    body: { name: 'Renamed' },
    headers: { 'if-match': `"${seller.updated_at}"` },
  });
  assert.equal(stale.status, 412);
  assert.equal(stale.body.error.code, 'STALE_WRITE');
  assert.equal((await stored(seller.id)).name, 'Patchable');

  const fresh = await t.request('PATCH', `/invoice-sellers/${seller.id}`, {
    body: { name: 'Renamed', iban_1: 'ee38 2200 2210 2014 5685', iban_2: null, logo_url: '' },
    headers: { 'if-match': archived.headers.get('etag')! },
  });
  assert.equal(fresh.status, 200, fresh.text);
  assert.equal(fresh.body.data.name, 'Renamed');
  assert.equal(fresh.body.data.iban_1, 'EE382200221020145685');
  assert.equal(fresh.body.data.logo_url, null);

  const bad = await t.request('PATCH', `/invoice-sellers/${seller.id}`, { body: { iban_2: 'EE382200221020145686' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.details.field, 'iban_2');
  const empty = await t.request('PATCH', `/invoice-sellers/${seller.id}`, { body: {} });
  assert.equal(empty.status, 200);
  assert.equal(empty.body.data.updated_at, fresh.body.data.updated_at);
  const del = await t.request('DELETE', `/invoice-sellers/${seller.id}`);
  assert.equal(del.status, 404);
});

test("GET lists in cursor mode with status and q filters; another company's sellers are 404", async () => {
  const names = ['List A', 'List B', 'List C'];
  const made = [];
  for (const name of names) made.push(await createSeller({ name }));
  await t.request('PATCH', `/invoice-sellers/${made[1].id}`, { body: { status: 'archived' } });
  const theirs = await createSeller({ name: 'List theirs' }, other);

  const page1 = await t.request('GET', '/invoice-sellers?q=list&limit=2');
  assert.equal(page1.status, 200, page1.text);
  assert.equal(page1.body.meta.total, 3);
  assert.equal(page1.body.meta.has_more, true);
  const page2 = await t.request('GET', `/invoice-sellers?cursor=${page1.body.meta.next_cursor}`);
  assert.equal(page2.status, 200, page2.text);
  assert.equal(page2.body.meta.total, undefined);
  assert.deepEqual(
    [...page1.body.data, ...page2.body.data].map((s: { id: number }) => s.id),
    made.map((s) => s.id),
  );
  const archived = await t.request('GET', '/invoice-sellers?status=archived&q=list');
  assert.deepEqual(
    archived.body.data.map((s: { id: number }) => s.id),
    [made[1].id],
  );
  const bad = await t.request('GET', '/invoice-sellers?cursor=nope');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'INVALID_CURSOR');
  const badFilter = await t.request('GET', '/invoice-sellers?status=gone');
  assert.equal(badFilter.body.error.code, 'INVALID_FILTER_VALUE');
  const unknownFilter = await t.request('GET', '/invoice-sellers?vat=1');
  assert.equal(unknownFilter.body.error.code, 'UNKNOWN_FILTER_FIELD');

  for (const [method, body] of [
    ['GET', undefined],
    ['PATCH', { status: 'archived' }],
  ] as const) {
    const res = await t.request(method, `/invoice-sellers/${theirs.id}`, { body });
    assert.equal(res.status, 404, method);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  const mine = await t.request('GET', `/invoice-sellers/${made[0].id}`);
  assert.deepEqual(mine.body.data, made[0]);
});
