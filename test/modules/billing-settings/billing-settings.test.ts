import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { readBillingSettings } from '../../../src/modules/billing-settings/index.ts';
import type { Ctx } from '../../../src/platform/context.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });

async function seller(name: string, tenant = t.tenant, status = 'active') {
  const res = await t.request('POST', '/invoice-sellers', { body: { name, status }, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id as number;
}

async function company(companyId = t.tenant.companyId) {
  return t.db.db
    .selectFrom('companies')
    .select(['currency', 'features'])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
}

const settingsRow = (companyId: string) =>
  t.db.db.selectFrom('billing_settings').selectAll().where('company_id', '=', companyId).executeTakeFirst();

/** A ctx as the services get it, for the exported reader (only companyId and db are read). */
const ctxOf = (companyId: string) => ({ db: t.db.db, companyId }) as Ctx;

test('a company that never wrote settings reads the defaults, and no row is created by reading', async () => {
  const res = await t.request('GET', '/company/billing-settings', { tenant: other });
  assert.equal(res.status, 200, res.text);
  const { updated_at, ...values } = res.body.data;
  assert.deepEqual(values, {
    billing_active: true,
    default_currency: 'EUR',
    default_seller_id: null,
    invoice_number_format: '{seq}',
    payment_term_days: 14,
    default_locale_code: 'en',
  });
  assert.match(updated_at, /Z$/);
  assert.equal(res.headers.get('etag'), `"${updated_at}"`);
  assert.equal(await settingsRow(other.companyId), undefined);
  assert.deepEqual(await readBillingSettings(ctxOf(other.companyId)), values);
});

test('PATCH creates the row, keeps the flag and the currency on the company, and reads back', async () => {
  const sellerId = await seller('Default seller');
  const res = await t.request('PATCH', '/company/billing-settings', {
    body: {
      billing_active: false,
      default_currency: 'USD',
      default_seller_id: sellerId,
      invoice_number_format: 'INV-{yyyy}-{seq:4}',
      payment_term_days: 30,
      default_locale_code: 'et',
    },
  });
  assert.equal(res.status, 200, res.text);
  const expected = {
    billing_active: false,
    default_currency: 'USD',
    default_seller_id: sellerId,
    invoice_number_format: 'INV-{yyyy}-{seq:4}',
    payment_term_days: 30,
    default_locale_code: 'et',
  };
  const { updated_at, ...values } = res.body.data;
  assert.deepEqual(values, expected);
  assert.equal(res.headers.get('etag'), `"${updated_at}"`);
  const row = await settingsRow(t.tenant.companyId);
  assert.equal(row?.payment_term_days, 30);
  assert.equal(row?.default_seller_id, sellerId);
  const stored = await company();
  assert.equal(stored.currency, 'USD');
  assert.equal((stored.features as { billing: boolean }).billing, false);
  assert.deepEqual(await readBillingSettings(ctxOf(t.tenant.companyId)), expected);

  const partial = await t.request('PATCH', '/company/billing-settings', {
    body: { billing_active: true, default_seller_id: null },
  });
  assert.equal(partial.status, 200);
  assert.equal(partial.body.data.billing_active, true);
  assert.equal(partial.body.data.default_seller_id, null);
  assert.equal(partial.body.data.payment_term_days, 30);
  assert.notEqual(partial.body.data.updated_at, updated_at);
  const get = await t.request('GET', '/company/billing-settings');
  assert.deepEqual(get.body.data, partial.body.data);
});

test('default_seller_id must be an active seller of the company: 400 INVALID_SELLER', async () => {
  const archived = await seller('Archived seller', t.tenant, 'archived');
  const theirs = await seller('Their seller', other);
  for (const id of [archived, theirs, 2147483000]) {
    const res = await t.request('PATCH', '/company/billing-settings', { body: { default_seller_id: id } });
    assert.equal(res.status, 400, String(id));
    assert.equal(res.body.error.code, 'INVALID_SELLER');
    assert.equal(res.body.error.details.field, 'default_seller_id');
  }
});

test('PATCH refuses bad values naming the field, and writes nothing', async () => {
  const before = await t.request('GET', '/company/billing-settings');
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ invoice_number_format: 'INV-{seq}-{seq}' }, 'invoice_number_format'],
    [{ invoice_number_format: 'INV' }, 'invoice_number_format'],
    [{ invoice_number_format: '{seq}{day}' }, 'invoice_number_format'],
    [{ default_currency: 'XQQ' }, 'default_currency'],
    [{ default_currency: 'usd' }, 'default_currency'],
    [{ payment_term_days: 366 }, 'payment_term_days'],
    [{ payment_term_days: -1 }, 'payment_term_days'],
    [{ default_locale_code: 'English!' }, 'default_locale_code'],
    [{ billing_active: 'yes' }, 'billing_active'],
    [{ company_id: other.companyId }, 'company_id'],
  ];
  for (const [body, field] of cases) {
    const res = await t.request('PATCH', '/company/billing-settings', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.match(JSON.stringify(res.body.error), new RegExp(field), JSON.stringify(body));
  }
  const after = await t.request('GET', '/company/billing-settings');
  assert.deepEqual(after.body.data, before.body.data);
});

test('an If-Match is honoured when sent: 412 when stale, applied when current', async () => {
  const current = await t.request('GET', '/company/billing-settings');
  const etag = current.headers.get('etag')!;
  const ok = await t.request('PATCH', '/company/billing-settings', {
    body: { payment_term_days: 21 },
    headers: { 'if-match': etag },
  });
  assert.equal(ok.status, 200, ok.text);
  const stale = await t.request('PATCH', '/company/billing-settings', {
    body: { payment_term_days: 7 },
    headers: { 'if-match': etag },
  });
  assert.equal(stale.status, 412);
  assert.equal(stale.body.error.code, 'STALE_WRITE');
  const read = await t.request('GET', '/company/billing-settings');
  assert.equal(read.body.data.payment_term_days, 21);
  const empty = await t.request('PATCH', '/company/billing-settings', { body: {} });
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body.data, read.body.data);
});

test('both routes need the financials tier', async () => {
  for (const key of ['read', 'write', 'personal', 'personalAdmin']) {
    const get = await t.request('GET', '/company/billing-settings', { key });
    assert.equal(get.status, 403, key);
    assert.equal(get.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    const patch = await t.request('PATCH', '/company/billing-settings', { key, body: { payment_term_days: 1 } });
    assert.equal(patch.status, 403, key);
    assert.equal(patch.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
  }
  const read = await t.request('GET', '/company/billing-settings');
  assert.notEqual(read.body.data.payment_term_days, 1);
});
