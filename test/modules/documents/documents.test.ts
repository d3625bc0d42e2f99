import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();

async function created(pathname: string, body: unknown, tenant?: TenantFixture): Promise<any> {
  const res = await t.request('POST', pathname, { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}
const newClient = async (name: string, tenant?: TenantFixture): Promise<number> =>
  (await created('/clients', { name }, tenant)).id;

const stored = (id: number) =>
  t.db.db
    .selectFrom('documents')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirst();

test('create, read, list, update and delete a document', async () => {
  const client = await newClient('Doc client');
  const folder = await created('/folders', { client_id: client, name: 'Letters' });
  const res = await t.request('POST', '/documents', {
    key: 'write',
    body: { client_id: client, folder_id: folder.id, name: 'Welcome letter', text_content: 'Dear client' },
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  const doc = res.body.data;
  assert.deepEqual(
    { ...doc, id: 0, created_at: '', updated_at: '' },
    {
      id: 0,
      client_id: client,
      folder_id: folder.id,
      name: 'Welcome letter',
      attachment_id: null,
      text_content: 'Dear client',
      created_at: '',
      updated_at: '',
    },
  );
  const row = await stored(doc.id);
  assert.equal(row?.name, 'Welcome letter');
  assert.equal(row?.folder_id, folder.id);
  assert.equal(row?.deleted_at, null);

  const read = await t.request('GET', `/documents/${doc.id}`);
  assert.deepEqual(read.body.data, doc);
  assert.equal(read.headers.get('etag'), `"${doc.updated_at}"`);
  const listed = await t.request('GET', `/documents?client_id=${client}&folder_id=${folder.id}&q=WELCOME`);
  assert.deepEqual(listed.body.data, [doc]);
  const other = await t.request('GET', `/documents?q=nothing-like-this`);
  assert.deepEqual(other.body.data, []);

  const patched = await t.request('PATCH', `/documents/${doc.id}`, {
    body: { folder_id: null, name: 'Renamed', text_content: null },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.folder_id, null);
  assert.equal(patched.body.data.name, 'Renamed');
  assert.ok(patched.body.data.updated_at > doc.updated_at);
  assert.equal((await stored(doc.id))?.text_content, null);

  const deleted = await t.request('DELETE', `/documents/${doc.id}`);
  assert.equal(deleted.status, 204);
  assert.notEqual((await stored(doc.id))?.deleted_at, null);
  assert.equal((await t.request('GET', `/documents/${doc.id}`)).status, 404);
  assert.equal((await t.request('PATCH', `/documents/${doc.id}`, { body: { name: 'x' } })).status, 404);
  assert.equal((await t.request('DELETE', `/documents/${doc.id}`)).status, 404);
});

test('documents check their client, folder and attachment', async () => {
  const client = await newClient('Checked client');
  const otherClient = await newClient('Other client');
  const theirFolder = await created('/folders', { client_id: otherClient, name: 'Elsewhere' });
  const wrongFolder = await t.request('POST', '/documents', {
    body: { client_id: client, folder_id: theirFolder.id, name: 'X' },
  });
  assert.equal(wrongFolder.status, 400);
  assert.equal(wrongFolder.body.error.code, 'VALIDATION_ERROR');
  assert.equal(wrongFolder.body.error.details.reason, 'INVALID_FOLDER');

  const attachment = await t.request('POST', '/documents', {
    body: { client_id: client, attachment_id: 2147483647, name: 'X' },
  });
  assert.equal(attachment.body.error.details.reason, 'INVALID_ATTACHMENT');

  const tenant = await t.newTenant();
  const foreignClient = await newClient('Theirs', tenant);
  const foreign = await t.request('POST', '/documents', { body: { client_id: foreignClient, name: 'X' } });
  assert.equal(foreign.status, 400);
  assert.equal(foreign.body.error.code, 'INVALID_CLIENT');

  const doc = await created('/documents', { client_id: client, name: 'Mine' });
  const move = await t.request('PATCH', `/documents/${doc.id}`, { body: { folder_id: theirFolder.id } });
  assert.equal(move.body.error.details.reason, 'INVALID_FOLDER');
  const clientChange = await t.request('PATCH', `/documents/${doc.id}`, { body: { client_id: otherClient } });
  assert.equal(clientChange.status, 400);
  assert.equal((await t.request('GET', `/documents/${doc.id}`, { tenant })).status, 404);
  assert.equal((await t.request('GET', `/documents/${doc.id}`, { key: 'personal' })).status, 404);
  assert.equal((await t.request('GET', `/documents/${doc.id}`, { key: 'read' })).status, 403);

  const bad: unknown[] = [
    { client_id: client },
    { client_id: client, name: '' },
    { client_id: client, name: 'a\u0000b' },
    { client_id: client, name: 'x'.repeat(256) },
    { client_id: client, name: 'X', text_content: 'y'.repeat(100_001) },
    { client_id: 1e20, name: 'X' },
    { client_id: client, name: 'X', company_id: tenant.companyId },
  ];
  for (const body of bad) {
    const res = await t.request('POST', '/documents', { body });
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 60)}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
});

test('POST /documents honours Idempotency-Key', async () => {
  const client = await newClient('Idempotent client');
  const headers = { 'idempotency-key': `doc-${client}` };
  const body = { client_id: client, name: 'Once' };
  const first = await t.request('POST', '/documents', { body, headers });
  const second = await t.request('POST', '/documents', { body, headers });
  assert.equal(first.status, 201);
  assert.deepEqual(second.body, first.body);
  const rows = await t.db.db
    .selectFrom('documents')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('client_id', '=', client)
    .execute();
  assert.equal(rows.length, 1);
  const reused = await t.request('POST', '/documents', { body: { ...body, name: 'Twice' }, headers });
  assert.equal(reused.status, 409);
});

/** Polls until the job has settled (bounded, so a job that never runs fails the test instead of hanging it). */
async function settled(id: number): Promise<any> {
  for (let poll = 0; poll < 5000; poll++) {
    const res = await t.request('GET', `/digitizations/${id}`);
    assert.equal(res.status, 200, res.text);
    if (res.body.data.status === 'finished' || res.body.data.status === 'failed') return res.body.data;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.fail(`digitization ${id} did not settle`);
}

test('a digitization extracts facts from the document text in a background job', async () => {
  const client = await newClient('Digitized client');
  const text = [
    'Invoice no: INV-2026-0042',
    'Date: 2026-03-15, due 15.04.2026 (not 31.02.2026)',
    'Total: EUR 1.234,50 and $ 99.90; fee 12 €',
    'Contact billing@Example.com',
  ].join('\n');
  const doc = await created('/documents', { client_id: client, name: 'Invoice', text_content: text });
  const res = await t.request('POST', '/digitizations', { key: 'write', body: { document_id: doc.id } });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  assert.equal(res.body.data.document_id, doc.id);
  assert.ok(['queued', 'running', 'finished'].includes(res.body.data.status));
  const done = await settled(res.body.data.id);
  assert.equal(done.status, 'finished', JSON.stringify(done));
  assert.equal(done.error, null);
  assert.deepEqual(done.result, {
    extractor: 'text-rules-2',
    source: 'text_content',
    characters: text.length,
    words: 20,
    lines: 4,
    dates: ['2026-03-15', '2026-04-15'],
    amounts: [
      { value: '1234.50', currency: 'EUR' },
      { value: '99.90', currency: 'USD' },
      { value: '12', currency: 'EUR' },
    ],
    emails: ['billing@example.com'],
    references: ['INV-2026-0042'],
  });
  const job = await t.request('GET', `/jobs/${done.job_id}`);
  assert.equal(job.body.data.status, 'finished');
  const listed = await t.request('GET', `/digitizations?document_id=${doc.id}`);
  assert.deepEqual(listed.body.data, [done]);
});

test('a digitization of a document without text fails with a readable reason', async () => {
  const client = await newClient('Empty doc client');
  const doc = await created('/documents', { client_id: client, name: 'Scan' });
  const res = await created('/digitizations', { document_id: doc.id });
  const done = await settled(res.id);
  assert.equal(done.status, 'failed');
  assert.equal(done.error, 'the document has no text to digitize');
  assert.equal(done.result, null);

  const tenant = await t.newTenant();
  const foreign = await t.request('POST', '/digitizations', { tenant, body: { document_id: doc.id } });
  assert.equal(foreign.status, 400);
  assert.equal(foreign.body.error.details.reason, 'INVALID_DOCUMENT');
  assert.equal((await t.request('GET', `/digitizations/${res.id}`, { tenant })).status, 404);
  const bad = await t.request('POST', '/digitizations', { body: { document_id: 'one', extra: true } });
  assert.equal(bad.status, 400);
});

test('a replayed POST /digitizations starts no second job', async () => {
  const client = await newClient('Replay client');
  const doc = await created('/documents', { client_id: client, name: 'Note', text_content: 'Total 5 EUR' });
  const headers = { 'idempotency-key': `digitize-${doc.id}` };
  const first = await t.request('POST', '/digitizations', { body: { document_id: doc.id }, headers });
  const second = await t.request('POST', '/digitizations', { body: { document_id: doc.id }, headers });
  assert.equal(first.status, 201, first.text);
  assert.equal(second.status, 201, second.text);
  assert.equal(second.body.data.id, first.body.data.id);
  const rows = await t.db.db
    .selectFrom('digitizations')
    .select(['id', 'job_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('document_id', '=', doc.id)
    .execute();
  assert.deepEqual(rows, [{ id: first.body.data.id, job_id: first.body.data.job_id }]);
  assert.deepEqual((await settled(first.body.data.id)).result.amounts, [{ value: '5', currency: 'EUR' }]);
});
