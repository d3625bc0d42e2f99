import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { agreementFixtures } from './support.ts';

const t = await createTestApp();
const person = t.tenant.memberPersonId;
const owner = t.tenant.ownerPersonId;

const { stored, newPerson, create } = agreementFixtures(t);

test('PATCH needs If-Match (428, 412), checks the stored dates, warns on overlap; person_id cannot change', async () => {
  const owner = await newPerson();
  const a = await create({ person_id: owner, date_from: '2070-01-01', date_until: '2070-12-31' });
  const b = await create({ person_id: owner, date_from: '2071-01-01' });
  const missing = await t.request('PATCH', `/agreements/${a.id}`, { body: { cost_rate: 12.5 } });
  assert.equal(missing.status, 428);
  assert.equal(missing.body.error.code, 'PRECONDITION_REQUIRED');
  const emptyMissing = await t.request('PATCH', `/agreements/${a.id}`, { body: {} });
  assert.equal(emptyMissing.status, 428);
  const stale = await t.request('PATCH', `/agreements/${a.id}`, {
    body: { cost_rate: 12.5 },
    headers: { 'if-match': '"2000-01-01T00:00:00.000Z"' },
  });
  assert.equal(stale.status, 412);
  assert.equal(stale.body.error.code, 'STALE_WRITE');
  assert.equal((await stored(a.id))?.cost_rate, '0.0000');

  const fresh = await t.request('PATCH', `/agreements/${a.id}`, {
    body: { cost_rate: 12.5, cost_type: 'month', weekly_hours: 20, work_days: [2, 1] },
    headers: { 'if-match': `"${a.updated_at}"` },
  });
  assert.equal(fresh.status, 200, fresh.text);
  assert.equal(fresh.body.data.cost_rate, 12.5);
  assert.deepEqual(fresh.body.data.work_days, [1, 2]);
  assert.equal(fresh.body.warnings, undefined);
  assert.notEqual(fresh.body.data.updated_at, a.updated_at);
  assert.equal(fresh.headers.get('etag'), `"${fresh.body.data.updated_at}"`);

  const inverted = await t.request('PATCH', `/agreements/${a.id}`, {
    body: { date_until: '2069-12-31' },
    headers: { 'if-match': fresh.headers.get('etag')! },
  });
  assert.equal(inverted.status, 400);
  assert.equal(inverted.body.error.details.reason, 'INVALID_DATE_RANGE');
  const noDays = await t.request('PATCH', `/agreements/${a.id}`, {
    body: { work_days: [] },
    headers: { 'if-match': fresh.headers.get('etag')! },
  });
  assert.equal(noDays.body.error.details.reason, 'WORK_DAYS_REQUIRED');
  const movePerson = await t.request('PATCH', `/agreements/${a.id}`, {
    body: { person_id: person },
    headers: { 'if-match': fresh.headers.get('etag')! },
  });
  assert.equal(movePerson.status, 400);

  const overlap = await t.request('PATCH', `/agreements/${a.id}`, {
    body: { date_until: null },
    headers: { 'if-match': fresh.headers.get('etag')! },
  });
  assert.equal(overlap.status, 200, overlap.text);
  assert.equal(overlap.body.data.date_until, null);
  assert.equal(overlap.body.warnings[0].code, 'AGREEMENT_OVERLAP');
  assert.deepEqual(overlap.body.warnings[0].details.overlapping_ids, [b.id]);
  assert.ok(overlap.headers.get('x-service-warning'));

  const same = await t.request('PATCH', `/agreements/${a.id}`, {
    body: {},
    headers: { 'if-match': overlap.headers.get('etag')! },
  });
  assert.equal(same.status, 200);
  assert.equal(same.body.data.updated_at, overlap.body.data.updated_at);
});

test('DELETE needs If-Match; the agreement leaves the live table for agreements_deleted and then answers 404', async () => {
  const a = await create({ person_id: owner, date_from: '2080-01-01', cost_rate: 99.5 });
  const missing = await t.request('DELETE', `/agreements/${a.id}`);
  assert.equal(missing.status, 428);
  const stale = await t.request('DELETE', `/agreements/${a.id}`, { headers: { 'if-match': '"2000-01-01T00:00:00Z"' } });
  assert.equal(stale.status, 412);
  assert.ok(await stored(a.id));
  const gone = await t.request('DELETE', `/agreements/${a.id}`, { headers: { 'if-match': `"${a.updated_at}"` } });
  assert.equal(gone.status, 204);
  assert.equal(gone.text, '');
  assert.equal(await stored(a.id), undefined);
  const archived = await t.db.db
    .selectFrom('agreements_deleted')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', a.id)
    .executeTakeFirstOrThrow();
  assert.equal(archived.cost_rate, '99.5000');
  assert.equal(archived.person_id, owner);
  assert.ok(archived.deleted_at);
  assert.equal((await t.request('GET', `/agreements/${a.id}`)).status, 404);
  assert.equal((await t.request('DELETE', `/agreements/${a.id}`, { headers: { 'if-match': '*' } })).status, 404);
});
