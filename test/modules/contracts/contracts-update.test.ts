import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { contractKit, dayOffset, today } from './support.ts';

const t = await createTestApp();
const kit = contractKit(t);
const other = await t.newTenant({ name: 'Other Co' });
const clientA = await kit.client('Alpha');
const clientB = await kit.client('Beta');
const otherClient = await kit.client('Foreign', other);

async function patch(id: number, body: unknown, etag?: string) {
  const ifMatch = etag ?? (await kit.etagOf(`/contracts/${id}`));
  return t.request('PATCH', `/contracts/${id}`, { body, headers: { 'if-match': ifMatch } });
}

test('PATCH needs If-Match: absent 428, stale 412, nothing written; current 200 with a new ETag', async () => {
  const c = await kit.contract({ name: 'Before', client_id: clientA });
  const none = await t.request('PATCH', `/contracts/${c.id}`, { body: { name: 'After' } });
  assert.equal(none.status, 428);
  assert.equal(none.body.error.code, 'PRECONDITION_REQUIRED');
  const stale = await t.request('PATCH', `/contracts/${c.id}`, {
    body: { name: 'After' },
    headers: { 'if-match': '"2020-01-01T00:00:00.000Z"' },
  });
  assert.equal(stale.status, 412);
  assert.equal(stale.body.error.code, 'STALE_WRITE');
  assert.equal((await t.request('GET', `/contracts/${c.id}`)).body.data.name, 'Before');
  const ok = await patch(c.id, { name: 'After' }, `"${c.updated_at}"`);
  assert.equal(ok.status, 200, ok.text);
  assert.equal(ok.body.data.name, 'After');
  assert.notEqual(ok.headers.get('etag'), `"${c.updated_at}"`);
  const empty = await t.request('PATCH', `/contracts/${c.id}`, { body: {} });
  assert.equal(empty.status, 428);
});

test('PATCH changes the schedule and client, and merges settings key by key', async () => {
  const c = await kit.contract({
    name: 'Sched',
    client_id: clientA,
    settings: { currency: 'EUR', invoice_recipients: ['a@x.example'], is_summarized: true },
  });
  const res = await patch(c.id, {
    client_id: clientB,
    date_from: '2026-03-01',
    invoice_period: 'half_year',
    invoice_day: 15,
    settings: { currency: 'GBP', reply_to: 'r@x.example' },
  });
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.equal(d.client_id, clientB);
  assert.equal(d.date_from, '2026-03-01');
  assert.equal(d.invoice_period, 'half_year');
  assert.equal(d.invoice_day, 15);
  assert.equal(d.settings.currency, 'GBP');
  assert.equal(d.settings.reply_to, 'r@x.example');
  assert.deepEqual(d.settings.invoice_recipients, ['a@x.example']);
  assert.equal(d.settings.is_summarized, true);
  const stored = (await kit.storedContracts()).find((r) => r.id === c.id)!;
  assert.equal((stored.settings as { currency: string }).currency, 'GBP');
});

test('PATCH refusals: foreign client, null client on a contract, bad range, bad settings, unknown field', async () => {
  const c = await kit.contract({ name: 'Guard', client_id: clientA, date_from: '2026-01-10' });
  const foreign = await patch(c.id, { client_id: otherClient });
  assert.equal(foreign.status, 400);
  assert.equal(foreign.body.error.code, 'INVALID_CLIENT');
  const nullClient = await patch(c.id, { client_id: null });
  assert.equal(nullClient.body.error.details.reason, 'CLIENT_REQUIRED');
  const range = await patch(c.id, { date_until: '2026-01-09' });
  assert.equal(range.body.error.details.reason, 'INVALID_DATE_RANGE');
  const format = await patch(c.id, { settings: { invoice_number_format: '{seq}{seq}' } });
  assert.equal(format.body.error.details.reason, 'INVALID_NUMBER_FORMAT');
  const unknown = await patch(c.id, { type: 'template' });
  assert.equal(unknown.status, 400);
  assert.match(unknown.body.error.message, /type/);
  const unchanged = (await t.request('GET', `/contracts/${c.id}`)).body.data;
  assert.equal(unchanged.client_id, clientA);
  assert.equal(unchanged.date_until, null);
});

test('status moves: active → pending → active, finished → pending; others are 409 INVALID_STATUS_TRANSITION', async () => {
  const c = await kit.contract({ name: 'Moves', client_id: clientA });
  assert.equal((await patch(c.id, { status: 'pending' })).body.data.status, 'pending');
  assert.equal((await patch(c.id, { status: 'active' })).body.data.status, 'active');
  const finish = await patch(c.id, { status: 'finished' });
  assert.equal(finish.status, 409);
  assert.equal(finish.body.error.code, 'INVALID_STATUS_TRANSITION');
  assert.deepEqual(finish.body.error.details, { from: 'active', to: 'finished', allowed: ['pending'] });
  const ended = await patch(c.id, { date_until: today() });
  assert.equal(ended.body.data.status, 'finished');
  const reopen = await patch(c.id, { status: 'active' });
  assert.equal(reopen.status, 409);
  assert.equal(reopen.body.error.code, 'INVALID_STATUS_TRANSITION');
  assert.equal((await patch(c.id, { status: 'pending' })).body.data.status, 'pending');
});

test('setting date_until ends the contract: a day up to today finishes it, a future day leaves it active', async () => {
  const past = await kit.contract({ name: 'Ends now', client_id: clientA, date_from: '2025-01-01' });
  const res = await patch(past.id, { date_until: dayOffset(-3) });
  assert.equal(res.body.data.status, 'finished');
  assert.equal(res.body.data.date_until, dayOffset(-3));
  const later = await kit.contract({ name: 'Ends later', client_id: clientA });
  const future = await patch(later.id, { date_until: dayOffset(10) });
  assert.equal(future.body.data.status, 'active');
  assert.equal(future.body.data.date_until, dayOffset(10));
  // A pending contract stays on hold whatever its last day.
  const held = await kit.contract({ name: 'Held', client_id: clientA, status: 'pending' });
  assert.equal((await patch(held.id, { date_until: dayOffset(-1) })).body.data.status, 'pending');
});

test('DELETE: active or finished is 409 CONTRACT_LOCKED; pending with If-Match is 204 and gone', async () => {
  const c = await kit.contract({ name: 'Doomed', client_id: clientA });
  const noMatch = await t.request('DELETE', `/contracts/${c.id}`);
  assert.equal(noMatch.status, 428);
  const locked = await t.request('DELETE', `/contracts/${c.id}`, { headers: { 'if-match': `"${c.updated_at}"` } });
  assert.equal(locked.status, 409);
  assert.equal(locked.body.error.code, 'CONTRACT_LOCKED');
  assert.deepEqual(locked.body.error.details, { status: 'active' });
  assert.match(locked.body.error.message, /pending first/);
  await patch(c.id, { date_until: today() });
  const ended = { 'if-match': await kit.etagOf(`/contracts/${c.id}`) };
  const finished = await t.request('DELETE', `/contracts/${c.id}`, { headers: ended });
  assert.deepEqual(finished.body.error.details, { status: 'finished' });
  const held = await patch(c.id, { status: 'pending' });
  const stale = await t.request('DELETE', `/contracts/${c.id}`, { headers: { 'if-match': `"${c.updated_at}"` } });
  assert.equal(stale.status, 412);
  const gone = await t.request('DELETE', `/contracts/${c.id}`, { headers: { 'if-match': held.headers.get('etag')! } });
  assert.equal(gone.status, 204);
  assert.equal((await t.request('GET', `/contracts/${c.id}`)).status, 404);
  const list = await t.request('GET', `/contracts?client_id=${clientA}&limit=200`);
  assert.ok(!list.body.data.some((x: { id: number }) => x.id === c.id));
  const stored = (await kit.storedContracts()).find((r) => r.id === c.id)!;
  assert.ok(stored.deleted_at !== null);
  const again = await t.request('DELETE', `/contracts/${c.id}`, { headers: { 'if-match': '*' } });
  assert.equal(again.status, 404);
});

test("another company's contract id answers 404 on PATCH, DELETE and apply, whatever the body", async () => {
  const theirs = await kit.contract({ name: 'Theirs', client_id: otherClient, status: 'pending' }, other);
  for (const [method, path, body] of [
    ['PATCH', `/contracts/${theirs.id}`, { name: 'Mine now' }],
    ['PATCH', `/contracts/${theirs.id}`, { junk: true }],
    ['DELETE', `/contracts/${theirs.id}`, undefined],
    ['POST', `/contracts/${theirs.id}/apply`, {}],
  ] as const) {
    const res = await t.request(method, path, { body, headers: { 'if-match': '*' } });
    assert.equal(res.status, 404, `${method} ${path}`);
  }
  const stored = (await kit.storedContracts(other.companyId)).find((r) => r.id === theirs.id)!;
  assert.equal(stored.name, 'Theirs');
  assert.equal(stored.deleted_at, null);
});
