import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { reclaimSupport } from './support.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });
const s = reclaimSupport(t);

const post = (source: number, body: unknown, key = 'admin') =>
  t.request('POST', `/tasks/${source}/reclaim`, { body, key });

test('by default a reclaim moves every live entry of the task that no invoice bills, and records the move', async () => {
  const source = await s.task();
  const target = await s.task();
  const elsewhere = await s.task();
  const [a, b] = [await s.entry(source, 3600), await s.entry(source, 1800, 2)];
  const drafted = await s.entry(source, 600);
  const finalized = await s.entry(source, 900);
  const deleted = await s.entry(source, 60);
  await t.db.db
    .updateTable('time_entries')
    .set({ deleted_at: new Date().toISOString() })
    .where('id', '=', deleted)
    .execute();
  const untouched = await s.entry(elsewhere, 60);
  await s.bill('draft', [drafted]);
  await s.bill('sent', [finalized]);
  const before = await t.db.db
    .selectFrom('time_entries')
    .select('updated_at')
    .where('id', '=', a)
    .executeTakeFirstOrThrow();

  const res = await post(source, { target_task_id: target, note: 'Billed under the wrong task' });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  const reclaim = res.body.data;
  assert.deepEqual(
    { ...reclaim, id: 0, created_at: '', updated_at: '' },
    {
      id: 0,
      source_task_id: source,
      target_task_id: target,
      time_entry_ids: [a, b],
      entry_count: 2,
      total_seconds: 5400,
      note: 'Billed under the wrong task',
      created_by: t.tenant.ownerPersonId,
      undone_at: null,
      skipped_entry_ids: null,
      created_at: '',
      updated_at: '',
    },
  );
  assert.equal(res.headers.get('etag'), `"${reclaim.updated_at}"`);
  assert.deepEqual(await s.tasksOf([a, b, drafted, finalized, deleted, untouched]), [
    target,
    target,
    source,
    source,
    source,
    elsewhere,
  ]);
  const after = await t.db.db
    .selectFrom('time_entries')
    .select('updated_at')
    .where('id', '=', a)
    .executeTakeFirstOrThrow();
  assert.notEqual(after.updated_at, before.updated_at, 'a moved entry gets a new ETag');
  const audit = await t.db.db
    .selectFrom('activities')
    .select(['entity', 'action', 'record_id', 'fields'])
    .where('company_id', '=', t.tenant.companyId)
    .where('path', '=', `/api/v3/tasks/${source}/reclaim`)
    .execute();
  assert.deepEqual(audit, [
    { entity: 'task', action: 'reclaim', record_id: source, fields: ['note', 'target_task_id'] },
  ]);
  const read = await t.request('GET', `/reclaims/${reclaim.id}`);
  assert.deepEqual(read.body.data, reclaim);
});

test('named entries: only those move; one not on the source is 400, one an invoice bills is 409 TIME_ENTRY_LOCKED', async () => {
  const source = await s.task();
  const target = await s.task();
  const [a, b, c] = [await s.entry(source, 100), await s.entry(source, 200), await s.entry(source, 300)];
  const foreign = await s.entry(await s.task(), 50);
  const theirs = await s.entry(await s.task({}, other), 50, 1, other);

  for (const ids of [[a, foreign], [theirs], [a, 2147483000]]) {
    const res = await post(source, { target_task_id: target, time_entry_ids: ids });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.equal(res.body.error.details.reason, 'NOT_ON_SOURCE_TASK');
    assert.deepEqual(res.body.error.details.invalid_ids, ids.slice(ids.length === 1 ? 0 : 1));
  }
  const sent = await s.bill('paid', [b]);
  const locked = await post(source, { target_task_id: target, time_entry_ids: [a, b] });
  assert.equal(locked.status, 409);
  assert.equal(locked.body.error.code, 'TIME_ENTRY_LOCKED');
  assert.deepEqual(locked.body.error.details, { reason: 'period_locked', time_entry_ids: [b], invoice_ids: [sent] });
  await s.unbill(sent);
  const draft = await s.bill('draft', [c]);
  const drafted = await post(source, { target_task_id: target, time_entry_ids: [c] });
  assert.equal(drafted.status, 409);
  assert.deepEqual(drafted.body.error.details, {
    reason: 'in_draft_invoice',
    time_entry_ids: [c],
    invoice_ids: [draft],
  });
  assert.deepEqual(await s.tasksOf([a, b, c]), [source, source, source], 'a refusal moves nothing');

  const ok = await s.reclaim(source, { target_task_id: target, time_entry_ids: [b, a] });
  assert.deepEqual(ok.time_entry_ids, [a, b]);
  assert.equal(ok.total_seconds, 300);
  assert.equal(ok.note, null);
  assert.deepEqual(await s.tasksOf([a, b, c]), [target, target, source]);
  assert.equal(
    (await t.db.db.selectFrom('reclaims').select('id').where('company_id', '=', t.tenant.companyId).execute()).length,
    2,
  );
});

test('the source must be a live task of the company (404), the target another live work task (400)', async () => {
  const source = await s.task();
  await s.entry(source, 60);
  const same = await post(source, { target_task_id: source });
  assert.equal(same.status, 400);
  assert.equal(same.body.error.details.reason, 'SAME_TASK');
  const deleted = await s.task({ deleted_at: new Date().toISOString() });
  const template = await s.task({ template_kind: 'workflow_template' });
  const theirs = await s.task({}, other);
  for (const target of [deleted, template, theirs, 2147483000]) {
    const res = await post(source, { target_task_id: target });
    assert.equal(res.status, 400, String(target));
    assert.equal(res.body.error.code, 'INVALID_TASK');
    assert.equal(res.body.error.details.field, 'target_task_id');
  }
  const target = await s.task();
  for (const missing of [deleted, theirs, 2147483000]) {
    // 404 whatever the body holds: the path's task is looked up first.
    for (const body of [{ target_task_id: target }, { bogus: true }]) {
      const res = await post(missing, body);
      assert.equal(res.status, 404, `${missing} ${JSON.stringify(body)}`);
      assert.equal(res.body.error.code, 'NOT_FOUND');
    }
  }
  const empty = await s.task();
  const nothing = await post(empty, { target_task_id: target });
  assert.equal(nothing.status, 400);
  assert.equal(nothing.body.error.details.reason, 'NOTHING_TO_RECLAIM');
});

test('bad bodies are 400 VALIDATION_ERROR and write nothing', async () => {
  const source = await s.task();
  const entry = await s.entry(source, 60);
  const target = await s.task();
  const bodies: unknown[] = [
    {},
    { target_task_id: '1' },
    { target_task_id: 9223372036854775807 },
    { target_task_id: 1e308 },
    { target_task_id: target, time_entry_ids: [] },
    { target_task_id: target, time_entry_ids: [entry, entry] },
    { target_task_id: target, time_entry_ids: Array.from({ length: 501 }, (_, i) => i + 1) },
    { target_task_id: target, time_entry_ids: ['x'] },
    { target_task_id: target, note: 'a\u0000b' },
    { target_task_id: target, note: 'x'.repeat(1001) },
    { target_task_id: target, undone_at: null },
    [],
    'text',
  ];
  for (const body of bodies) {
    const res = await post(source, body);
    assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  assert.equal(await s.taskOf(entry), source);
});

test('every reclaim route needs the financials tier; read, write and personal keys get 403', async () => {
  const source = await s.task();
  const entry = await s.entry(source, 60);
  const target = await s.task();
  const reclaim = await s.reclaim(source, { target_task_id: target });
  const calls: Array<[string, string, unknown]> = [
    ['GET', '/reclaims', undefined],
    ['GET', `/reclaims/${reclaim.id}`, undefined],
    ['PATCH', `/reclaims/${reclaim.id}`, { note: 'x' }],
    ['POST', `/reclaims/${reclaim.id}/undo`, undefined],
    ['POST', `/tasks/${target}/reclaim`, { target_task_id: source }],
  ];
  for (const key of ['read', 'write', 'personal', 'personalAdmin']) {
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { key, body });
      assert.equal(res.status, 403, `${method} ${path} ${key}`);
      assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    }
  }
  assert.equal(await s.taskOf(entry), target);
});
