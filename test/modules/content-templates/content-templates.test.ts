import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();

const ROW_EN = {
  locale: 'en',
  subject: 'Hello {{client.name}}',
  body: 'Dear {{contact.name}},\nregards, {{company.name}}',
};

async function create(body: Record<string, unknown>, tenant?: TenantFixture) {
  const res = await t.request('POST', '/content-templates', { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

const stored = (id: number) =>
  t.db.db
    .selectFrom('content_templates')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
const storedRows = (templateId: number) =>
  t.db.db
    .selectFrom('content_template_rows')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('template_id', '=', templateId)
    .orderBy('id')
    .execute();

test('create, read, list, update and delete a content template (preview)', async () => {
  const res = await t.request('POST', '/content-templates', {
    key: 'write',
    body: { name: 'Welcome', type: 'client_email', rows: [ROW_EN, { ...ROW_EN, locale: 'FI-fi', subject: 'Hei' }] },
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  const template = res.body.data;
  assert.deepEqual(
    { ...template, rows: undefined, id: undefined, created_at: undefined, updated_at: undefined },
    {
      id: undefined,
      name: 'Welcome',
      type: 'client_email',
      channel: 'email',
      format: 'text',
      status: 'active',
      is_default: false,
      default_locale: 'en',
      rows: undefined,
      created_at: undefined,
      updated_at: undefined,
    },
  );
  assert.equal(res.headers.get('etag'), `"${template.updated_at}"`);
  assert.deepEqual(
    template.rows.map((r: any) => [r.locale, r.subject, r.body, r.template_id]),
    [
      ['en', ROW_EN.subject, ROW_EN.body, template.id],
      ['fi-FI', 'Hei', ROW_EN.body, template.id],
    ],
    'locales are stored in canonical case',
  );
  const row = await stored(template.id);
  assert.equal(row.name, 'Welcome');
  assert.equal(row.deleted_at, null);
  assert.equal((await storedRows(template.id)).length, 2);

  const read = await t.request('GET', `/content-templates/${template.id}`, { key: 'write' });
  // The spec's row reads "GET/POST/PATCH/DELETE, write": a read key does not reach it (decision 0050).
  const readKey = await t.request('GET', `/content-templates/${template.id}`, { key: 'read' });
  assert.deepEqual(
    [readKey.status, readKey.body.error.code, readKey.body.error.details],
    [403, 'FORBIDDEN', { required_scope: 'write' }],
  );
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body.data, template);

  const patched = await t.request('PATCH', `/content-templates/${template.id}`, {
    body: { name: 'Welcome mail', status: 'inactive', default_locale: 'fi' },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.name, 'Welcome mail');
  assert.equal(patched.body.data.status, 'inactive');
  assert.equal(patched.body.data.default_locale, 'fi');
  assert.equal((await stored(template.id)).status, 'inactive');

  const deleted = await t.request('DELETE', `/content-templates/${template.id}`);
  assert.equal(deleted.status, 204, deleted.text);
  assert.ok((await stored(template.id)).deleted_at, 'soft deleted');
  assert.equal((await t.request('GET', `/content-templates/${template.id}`)).status, 404);
  assert.equal((await t.request('DELETE', `/content-templates/${template.id}`)).body.error.code, 'NOT_FOUND');
});

test('list filters: type, channel, status, q; rows come with each template', async () => {
  const tenant = await t.newTenant();
  const a = await create(
    {
      name: 'Invoice mail EN',
      type: 'invoice_email',
      rows: [{ locale: 'en', subject: 'Invoice {{invoice.number}}', body: 'x' }],
    },
    tenant,
  );
  const b = await create({ name: 'Client news', type: 'client_email', status: 'inactive' }, tenant);
  const list = async (query: string) => {
    const res = await t.request('GET', `/content-templates${query}`, { tenant, key: 'write' });
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((r: any) => r.id);
  };
  assert.deepEqual(await list(''), [a.id, b.id]);
  assert.deepEqual(await list('?type=invoice_email'), [a.id]);
  assert.deepEqual(await list('?type=invoice_email,client_email&status=inactive'), [b.id]);
  assert.deepEqual(await list('?channel=email'), [a.id, b.id]);
  assert.deepEqual(await list('?q=NEWS'), [b.id]);
  const full = await t.request('GET', '/content-templates?type=invoice_email', { tenant });
  assert.equal(full.body.data[0].rows[0].subject, 'Invoice {{invoice.number}}');
  assert.equal(full.body.meta.total, 1);
  for (const bad of ['?type=sms_text', '?channel=sms', '?sort=body', '?unknown=1']) {
    const res = await t.request('GET', `/content-templates${bad}`, { tenant });
    assert.ok(res.status === 400 || res.status === 422, `${bad}: ${res.text}`);
  }
});

test('one default per type: setting is_default clears the previous one', async () => {
  const tenant = await t.newTenant();
  const first = await create({ name: 'First', type: 'client_email', is_default: true }, tenant);
  const other = await create({ name: 'Invoice', type: 'invoice_email', is_default: true }, tenant);
  const second = await create({ name: 'Second', type: 'client_email', is_default: true }, tenant);
  const get = async (id: number) => (await t.request('GET', `/content-templates/${id}`, { tenant })).body.data;
  assert.equal((await get(first.id)).is_default, false);
  assert.equal((await get(second.id)).is_default, true);
  assert.equal((await get(other.id)).is_default, true, 'another type keeps its default');
  const back = await t.request('PATCH', `/content-templates/${first.id}`, { tenant, body: { is_default: true } });
  assert.equal(back.status, 200, back.text);
  assert.equal((await get(second.id)).is_default, false);
  assert.equal((await get(first.id)).is_default, true);
});

test('rows: POST upserts per locale (201 new, 200 replaced), PATCH and DELETE by row id', async () => {
  const template = await create({ name: 'Rows', type: 'client_email', rows: [ROW_EN] });
  const enId = template.rows[0].id;
  const added = await t.request('POST', `/content-templates/${template.id}/rows`, {
    body: { locale: 'de', subject: 'Hallo {{client.name}}', body: 'Guten Tag' },
  });
  assert.equal(added.status, 201, added.text);
  assert.equal(added.body.data.locale, 'de');
  const replaced = await t.request('POST', `/content-templates/${template.id}/rows`, {
    body: { locale: 'EN', subject: 'Hi again', body: 'New text' },
  });
  assert.equal(replaced.status, 200, replaced.text);
  assert.equal(replaced.body.data.id, enId, 'the locale keeps its row');
  assert.equal(replaced.body.data.subject, 'Hi again');
  const after = await t.request('GET', `/content-templates/${template.id}`);
  assert.notEqual(after.body.data.updated_at, template.updated_at, "the template's ETag moved");
  assert.deepEqual(
    after.body.data.rows.map((r: any) => [r.locale, r.subject]),
    [
      ['de', 'Hallo {{client.name}}'],
      ['en', 'Hi again'],
    ],
  );

  const patched = await t.request('PATCH', `/content-templates/${template.id}/rows/${enId}`, {
    body: { body: 'Patched {{contact.email}}' },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.body, 'Patched {{contact.email}}');
  assert.equal(patched.body.data.subject, 'Hi again');
  const locale = await t.request('PATCH', `/content-templates/${template.id}/rows/${enId}`, { body: { locale: 'fr' } });
  assert.equal(locale.status, 400, 'the locale is the row identity');

  const removed = await t.request('DELETE', `/content-templates/${template.id}/rows/${enId}`);
  assert.equal(removed.status, 204, removed.text);
  const rows = await storedRows(template.id);
  assert.ok(rows.find((r) => r.id === enId)?.deleted_at, 'soft deleted');
  assert.equal((await t.request('PATCH', `/content-templates/${template.id}/rows/${enId}`, { body: {} })).status, 404);
  const again = await t.request('POST', `/content-templates/${template.id}/rows`, {
    body: { locale: 'en', subject: 'Back', body: 'again' },
  });
  assert.equal(again.status, 201, 'a deleted locale can be added again');

  const other = await create({ name: 'Other', type: 'client_email', rows: [ROW_EN] });
  const foreignRow = other.rows[0].id;
  const wrong = await t.request('PATCH', `/content-templates/${template.id}/rows/${foreignRow}`, {
    body: { subject: 'x' },
  });
  assert.equal(wrong.status, 404, "a row of another template is not this template's");
  assert.equal((await t.request('DELETE', `/content-templates/${template.id}/rows/${foreignRow}`)).status, 404);
  assert.equal((await t.request('POST', '/content-templates/999999/rows', { body: ROW_EN })).status, 404);
});

test('placeholders are checked against the type: an unknown one is named in a 400', async () => {
  const bad = await t.request('POST', '/content-templates', {
    body: {
      name: 'Bad',
      type: 'client_email',
      rows: [{ locale: 'en', subject: 'Invoice {{ invoice.number }}', body: 'x' }],
    },
  });
  assert.equal(bad.status, 400, bad.text);
  assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
  assert.equal(bad.body.error.details.reason, 'UNKNOWN_PLACEHOLDER');
  assert.equal(bad.body.error.details.placeholder, 'invoice.number');
  assert.equal(bad.body.error.details.field, 'rows[0].subject');
  assert.match(bad.body.error.message, /\{\{invoice\.number\}\}/);

  const template = await create({ name: 'Invoice', type: 'invoice_email' });
  const typo = await t.request('POST', `/content-templates/${template.id}/rows`, {
    body: { locale: 'en', subject: 'ok', body: 'Due {{invoice.due}}' },
  });
  assert.equal(typo.status, 400);
  assert.equal(typo.body.error.details.placeholder, 'invoice.due');
  assert.equal((await storedRows(template.id)).length, 0, 'nothing stored');

  const dup = await t.request('POST', '/content-templates', {
    body: { name: 'Dup', type: 'client_email', rows: [ROW_EN, { ...ROW_EN, locale: 'EN' }] },
  });
  assert.equal(dup.status, 400);
  assert.equal(dup.body.error.details.reason, 'DUPLICATE_LOCALE');
});

test('HTML bodies are sanitized on write', async () => {
  const template = await create({
    name: 'Html',
    type: 'client_email',
    format: 'html',
    rows: [
      {
        locale: 'en',
        subject: 'Hi',
        body: '<p onclick="x()">Hello <script>alert(1)</script><b>{{client.name}}</b></p>',
      },
    ],
  });
  assert.equal(template.rows[0].body, '<p>Hello <b>{{client.name}}</b></p>');
  const format = await t.request('PATCH', `/content-templates/${template.id}`, { body: { format: 'text' } });
  assert.equal(format.status, 400, 'format is fixed once created');
});

test('bad input answers 400', async () => {
  const template = await create({ name: 'Target', type: 'client_email', rows: [ROW_EN] });
  const cases: Array<[string, string, unknown]> = [
    ['POST', '/content-templates', { type: 'client_email' }],
    ['POST', '/content-templates', { name: 'x', type: 'sms' }],
    ['POST', '/content-templates', { name: 'x', type: 'client_email', channel: 'sms' }],
    ['POST', '/content-templates', { name: 'x', type: 'client_email', extra: 1 }],
    ['POST', '/content-templates', { name: 'x\u0000y', type: 'client_email' }],
    ['POST', '/content-templates', { name: 12, type: 'client_email' }],
    ['POST', '/content-templates', { name: 'x'.repeat(256), type: 'client_email' }],
    ['POST', '/content-templates', { name: 'x', type: 'client_email', is_default: 'yes' }],
    ['POST', '/content-templates', { name: 'x', type: 'client_email', default_locale: 'english!' }],
    ['POST', '/content-templates', { name: 'x', type: 'client_email', rows: Array(51).fill(ROW_EN) }],
    ['POST', `/content-templates/${template.id}/rows`, { ...ROW_EN, locale: 'en_US_POSIX_x' }],
    ['POST', `/content-templates/${template.id}/rows`, { ...ROW_EN, locale: 'e' }],
    ['POST', `/content-templates/${template.id}/rows`, { ...ROW_EN, subject: 'a\r\nBcc: x@y.z' }],
    ['POST', `/content-templates/${template.id}/rows`, { ...ROW_EN, body: 'x'.repeat(20_001) }],
    ['POST', `/content-templates/${template.id}/rows`, { ...ROW_EN, body: 'a\u0000b' }],
    ['POST', `/content-templates/${template.id}/rows`, { locale: 'en', subject: 'x' }],
    ['PATCH', `/content-templates/${template.id}`, { type: 'invoice_email' }],
    ['PATCH', `/content-templates/${template.id}`, { name: null }],
    ['PATCH', `/content-templates/${template.id}/rows/${template.rows[0].id}`, { subject: 5 }],
    ['GET', '/content-templates/99999999999999999999', undefined],
    ['PATCH', '/content-templates/abc', { name: 'x' }],
  ];
  for (const [method, path, body] of cases) {
    const res = await t.request(method, path, { body });
    assert.equal(res.status, 400, `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}: ${res.text}`);
  }
});

test('tenants are isolated; a plain member reads but does not change templates; idempotent create', async () => {
  const other = await t.newTenant();
  const theirs = await create({ name: 'Theirs', type: 'client_email', rows: [ROW_EN] }, other);
  assert.equal((await t.request('GET', `/content-templates/${theirs.id}`)).status, 404);
  assert.equal((await t.request('PATCH', `/content-templates/${theirs.id}`, { body: { name: 'x' } })).status, 404);
  assert.equal((await t.request('POST', `/content-templates/${theirs.id}/rows`, { body: ROW_EN })).status, 404);
  assert.equal((await t.request('DELETE', `/content-templates/${theirs.id}/rows/${theirs.rows[0].id}`)).status, 404);
  const list = await t.request('GET', '/content-templates?q=Theirs');
  assert.deepEqual(list.body.data, []);

  const mine = await create({ name: 'Mine', type: 'client_email' });
  assert.equal((await t.request('GET', `/content-templates/${mine.id}`, { key: 'personal' })).status, 200);
  const member = await t.request('PATCH', `/content-templates/${mine.id}`, { key: 'personal', body: { name: 'x' } });
  assert.equal(member.status, 403, member.text);
  assert.equal(
    (await t.request('POST', '/content-templates', { key: 'read', body: { name: 'x', type: 'client_email' } })).status,
    403,
  );

  const headers = { 'idempotency-key': `ct-${Date.now()}` };
  const body = { name: 'Once', type: 'client_email' };
  const first = await t.request('POST', '/content-templates', { headers, body });
  const second = await t.request('POST', '/content-templates', { headers, body });
  assert.equal(first.status, 201);
  assert.equal(second.status, 201);
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.equal(second.body.data.id, first.body.data.id);
  const rowsFirst = await t.request('POST', `/content-templates/${mine.id}/rows`, { headers, body: ROW_EN });
  assert.equal(rowsFirst.status, 409, 'the same key with another request');
  assert.equal(rowsFirst.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
});
