import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';
import { insertTask } from '../modules/time-entries/fixtures.ts';
import { WARNING_HEADER_MAX_BYTES, WARNING_HEADER_MAX_WARNINGS } from '../../src/platform/http.ts';

const t = await createTestApp();
const task = await insertTask(t, t.tenant);

/** 200 closed entries of an hour each, one a day, as an import sends them. */
const entries = Array.from({ length: 200 }, (_, i) => {
  const day = new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);
  return {
    task_id: task,
    person_id: t.tenant.ownerPersonId,
    start: `${day}T09:00:00Z`,
    end: `${day}T10:00:00Z`,
    description: 'Imported Ünïcödé text',
  };
});

test('a 200-entry re-import: warnings[] complete, the legacy header capped with a count of the rest, and fetch reads the answer', async () => {
  const first = await t.request('POST', '/time-entries/bulk', { body: { entries } });
  assert.equal(first.status, 201, first.text);
  assert.equal(first.headers.get('x-service-warning'), null, 'no warnings, no header');

  // t.request is Node's fetch (undici): before the cap its 16 KB header limit made this request throw.
  const again = await t.request('POST', '/time-entries/bulk', { body: { entries } });
  assert.equal(again.status, 201, again.text);
  assert.equal(again.body.data.length, 200);
  const warnings = again.body.warnings as Array<{ code: string; index: number; details: any }>;
  assert.equal(warnings.length, 200, 'warnings[] keeps every warning');
  assert.deepEqual(
    warnings.map((w) => w.index),
    entries.map((_, i) => i),
  );
  assert.ok(warnings.every((w) => w.code === 'TIME_ENTRY_OVERLAP'));
  assert.deepEqual(warnings[7]!.details.overlapping_ids, [first.body.data[7].id]);

  const header = again.headers.get('x-service-warning')!;
  assert.ok(Buffer.byteLength(header) <= WARNING_HEADER_MAX_BYTES, `${Buffer.byteLength(header)} bytes`);
  const legacy = JSON.parse(header) as Array<{ code: string; details?: any }>;
  const shown = legacy.slice(0, -1);
  assert.ok(shown.length >= 1 && shown.length <= WARNING_HEADER_MAX_WARNINGS, `${shown.length} shown`);
  assert.deepEqual(shown, warnings.slice(0, shown.length), 'the first warnings, as in the body');
  assert.deepEqual(legacy.at(-1), {
    code: 'WARNINGS_TRUNCATED',
    message: `${200 - shown.length} more warning(s) in the body's warnings[]`,
    details: { omitted: 200 - shown.length, total: 200 },
  });

  const stored = await t.db.db
    .selectFrom('time_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', t.tenant.companyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  assert.equal(Number(stored.n), 400, 'both bulks committed');
});

test('warnings that fit are sent whole; past the byte cap the header holds fewer than the count cap, then the count', async () => {
  const few = entries.slice(0, 3).map((e) => ({ ...e, start: e.start.replace('09:00', '09:30') }));
  const res = await t.request('POST', '/time-entries/bulk', { body: { entries: few } });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.warnings.length, 3);
  assert.deepEqual(JSON.parse(res.headers.get('x-service-warning')!), res.body.warnings, 'no count when all fit');

  // 60 entries in one hour, then 30 more: each warning names 60-90 ids (~500 bytes), so bytes bind before the count.
  const slot = { ...entries[0]!, start: '2026-12-01T09:00:00Z', end: '2026-12-01T10:00:00Z' };
  const crowd = await t.request('POST', '/time-entries/bulk', { body: { entries: Array(60).fill(slot) } });
  assert.equal(crowd.status, 201, crowd.text);
  const big = await t.request('POST', '/time-entries/bulk', { body: { entries: Array(30).fill(slot) } });
  assert.equal(big.status, 201, big.text);
  assert.equal(big.body.warnings.length, 30);
  const header = big.headers.get('x-service-warning')!;
  assert.ok(Buffer.byteLength(header) <= WARNING_HEADER_MAX_BYTES, `${Buffer.byteLength(header)} bytes`);
  const legacy = JSON.parse(header);
  const shown = legacy.slice(0, -1);
  assert.ok(shown.length > 0 && shown.length < WARNING_HEADER_MAX_WARNINGS, `${shown.length} shown`);
  assert.deepEqual(shown, big.body.warnings.slice(0, shown.length));
  assert.deepEqual(legacy.at(-1).details, { omitted: 30 - shown.length, total: 30 });
});
