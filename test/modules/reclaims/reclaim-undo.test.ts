import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { reclaimSupport } from './support.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });
const s = reclaimSupport(t);

const undo = (id: number, headers?: Record<string, string>) => t.request('POST', `/reclaims/${id}/undo`, { headers });

/** A source task with `count` one-hour entries, reclaimed onto a new target task. */
async function reclaimed(count = 2) {
  const source = await s.task();
  const target = await s.task();
  const entries: number[] = [];
  for (let i = 0; i < count; i++) entries.push(await s.entry(source, 3600, i + 1));
  const reclaim = await s.reclaim(source, { target_task_id: target });
  return { source, target, entries, reclaim };
}

test('undo moves the entries still on the target back, sets undone_at and lists the ones it left', async () => {
  const { source, target, entries, reclaim } = await reclaimed(4);
  const [a, b, gone, movedOn] = entries as [number, number, number, number];
  const third = await s.task();
  await t.db.db
    .updateTable('time_entries')
    .set({ deleted_at: new Date().toISOString() })
    .where('id', '=', gone)
    .execute();
  await t.db.db.updateTable('time_entries').set({ task_id: third }).where('id', '=', movedOn).execute();

  const res = await undo(reclaim.id);
  assert.equal(res.status, 200, res.text);
  const done = res.body.data;
  assert.match(done.undone_at, /Z$/);
  assert.deepEqual(done.skipped_entry_ids, [gone, movedOn]);
  assert.deepEqual(done.time_entry_ids, entries);
  assert.notEqual(done.updated_at, reclaim.updated_at);
  assert.equal(res.headers.get('etag'), `"${done.updated_at}"`);
  assert.deepEqual(await s.tasksOf([a, b, gone, movedOn]), [source, source, target, third]);
  const audit = await t.db.db
    .selectFrom('activities')
    .select(['entity', 'action', 'record_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('path', '=', `/api/v3/reclaims/${reclaim.id}/undo`)
    .execute();
  assert.deepEqual(audit, [{ entity: 'reclaim', action: 'undo', record_id: reclaim.id }]);

  // Not covered by idempotency: a repeat (with or without a key) is refused, never replayed.
  for (const headers of [undefined, { 'idempotency-key': 'undo-1' }, { 'idempotency-key': 'undo-1' }]) {
    const again = await undo(reclaim.id, headers);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'RECLAIM_NOT_UNDOABLE');
    assert.deepEqual(again.body.error.details, { reason: 'already_undone', undone_at: done.undone_at });
    assert.equal(again.headers.get('idempotency-replayed'), null);
  }
});

test('two undos at once: one wins, the other is 409 already_undone', async () => {
  const { source, entries, reclaim } = await reclaimed();
  const answers = await Promise.all([undo(reclaim.id), undo(reclaim.id)]);
  assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409]);
  assert.deepEqual(await s.tasksOf(entries), [source, source]);
});

test('an entry an invoice bills blocks the undo: period_locked (finalized) or in_draft_invoice; nothing moves', async () => {
  const { source, target, entries, reclaim } = await reclaimed();
  const finalized = await s.bill('created', [entries[1]!]);
  const locked = await undo(reclaim.id);
  assert.equal(locked.status, 409);
  assert.equal(locked.body.error.code, 'RECLAIM_NOT_UNDOABLE');
  assert.deepEqual(locked.body.error.details, {
    reason: 'period_locked',
    time_entry_ids: [entries[1]],
    invoice_ids: [finalized],
  });
  await s.unbill(finalized);
  const draft = await s.bill('draft', [entries[0]!]);
  const drafted = await undo(reclaim.id);
  assert.equal(drafted.status, 409);
  assert.deepEqual(drafted.body.error.details, {
    reason: 'in_draft_invoice',
    time_entry_ids: [entries[0]],
    invoice_ids: [draft],
  });
  assert.deepEqual(await s.tasksOf(entries), [target, target]);
  assert.equal((await t.request('GET', `/reclaims/${reclaim.id}`)).body.data.undone_at, null);
  // Released (the draft's row removed), the undo goes through.
  await s.unbill(draft);
  assert.equal((await undo(reclaim.id)).status, 200);
  assert.deepEqual(await s.tasksOf(entries), [source, source]);
});

test('undo is refused with source_task_gone once the source task is deleted', async () => {
  const { source, target, entries, reclaim } = await reclaimed(1);
  assert.equal((await t.request('DELETE', `/tasks/${source}`)).status, 204);
  const res = await undo(reclaim.id);
  assert.equal(res.status, 409);
  assert.deepEqual(res.body.error.details, { reason: 'source_task_gone', source_task_id: source });
  assert.equal(await s.taskOf(entries[0]!), target);
});

test("undo and PATCH of another company's reclaim, or an absent one, are 404 whatever the body", async () => {
  const source = await s.task({}, other);
  await s.entry(source, 60, 1, other);
  const theirs = await s.reclaim(source, { target_task_id: await s.task({}, other) }, other);
  for (const id of [theirs.id, 2147483000]) {
    assert.equal((await undo(id)).status, 404);
    for (const body of [{ note: 'x' }, { undone_at: null }, { bogus: 1 }]) {
      const res = await t.request('PATCH', `/reclaims/${id}`, { body });
      assert.equal(res.status, 404, JSON.stringify(body));
      assert.equal(res.body.error.code, 'NOT_FOUND');
    }
    assert.equal((await t.request('GET', `/reclaims/${id}`)).status, 404);
  }
  const still = await t.request('GET', `/reclaims/${theirs.id}`, { tenant: other });
  assert.equal(still.body.data.undone_at, null);
});

test('PATCH: undone_at in any form is 409 RECLAIM_UNDO_NOT_SUPPORTED; only note is writable', async () => {
  const { reclaim } = await reclaimed(1);
  for (const body of [{ undone_at: '2026-07-01T00:00:00Z' }, { undone_at: null }, { undone_at: 'now', note: 'x' }]) {
    const res = await t.request('PATCH', `/reclaims/${reclaim.id}`, { body });
    assert.equal(res.status, 409, JSON.stringify(body));
    assert.equal(res.body.error.code, 'RECLAIM_UNDO_NOT_SUPPORTED');
    assert.equal(res.body.error.details.undo_path, `/reclaims/${reclaim.id}/undo`);
  }
  const unchanged = await t.request('GET', `/reclaims/${reclaim.id}`);
  assert.deepEqual(unchanged.body.data, reclaim);

  for (const body of [{ undone_at: 5 }, { source_task_id: 1 }, { note: 'a\u0000b' }, { note: 1 }, []]) {
    const res = await t.request('PATCH', `/reclaims/${reclaim.id}`, { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  const empty = await t.request('PATCH', `/reclaims/${reclaim.id}`, { body: {} });
  assert.equal(empty.status, 200);
  assert.equal(empty.body.data.updated_at, reclaim.updated_at);

  const noted = await t.request('PATCH', `/reclaims/${reclaim.id}`, { body: { note: 'Agreed with the client' } });
  assert.equal(noted.status, 200, noted.text);
  assert.equal(noted.body.data.note, 'Agreed with the client');
  const stale = await t.request('PATCH', `/reclaims/${reclaim.id}`, {
    body: { note: null },
    headers: { 'if-match': `"${reclaim.updated_at}"` },
  });
  assert.equal(stale.status, 412);
  const fresh = await t.request('PATCH', `/reclaims/${reclaim.id}`, {
    body: { note: null },
    headers: { 'if-match': noted.headers.get('etag')! },
  });
  assert.equal(fresh.status, 200);
  assert.equal(fresh.body.data.note, null);
  const staleUndo = await undo(reclaim.id, { 'if-match': `"${reclaim.updated_at}"` });
  assert.equal(staleUndo.status, 412);
  assert.equal(staleUndo.body.error.code, 'STALE_WRITE');
});

test('GET /reclaims lists offset-only with task, entry and undone filters; another company sees none', async () => {
  const one = await reclaimed(1);
  const two = await reclaimed(1);
  assert.equal((await undo(two.reclaim.id)).status, 200);
  const theirsSource = await s.task({}, other);
  await s.entry(theirsSource, 60, 1, other);
  const theirs = await s.reclaim(theirsSource, { target_task_id: await s.task({}, other) }, other);
  const ids = async (query: string) => {
    const res = await t.request('GET', `/reclaims?limit=200&${query}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.meta.total, res.body.data.length);
    assert.equal(res.body.meta.next_cursor, undefined);
    return res.body.data.map((r: { id: number }) => r.id);
  };
  const all = await ids('');
  assert.ok(all.includes(one.reclaim.id) && all.includes(two.reclaim.id) && !all.includes(theirs.id));
  assert.deepEqual(await ids(`task_id=${one.source}`), [one.reclaim.id]);
  assert.deepEqual(await ids(`task_id=${one.target}`), [one.reclaim.id]);
  assert.deepEqual(await ids(`source_task_id=${two.source}`), [two.reclaim.id]);
  assert.deepEqual(await ids(`target_task_id=${two.source}`), []);
  assert.deepEqual(await ids(`target_task_id=${two.target}`), [two.reclaim.id]);
  assert.deepEqual(await ids(`time_entry_id=${one.entries[0]}`), [one.reclaim.id]);
  assert.ok((await ids('undone=true')).includes(two.reclaim.id));
  assert.ok(!(await ids('undone=true')).includes(one.reclaim.id));
  assert.ok((await ids('undone=false')).includes(one.reclaim.id));
  const sorted = await ids('sort=-id');
  assert.deepEqual(
    sorted,
    [...sorted].sort((a: number, b: number) => b - a),
  );
  assert.deepEqual(await ids(`task_id=${theirsSource}`), []);
  const cursor = await t.request('GET', '/reclaims?cursor=abc');
  assert.equal(cursor.status, 400);
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
  for (const query of ['undone=maybe', 'task_id=x', 'time_entry_id=%00']) {
    const bad = await t.request('GET', `/reclaims?${query}`);
    assert.equal(bad.status, 422, query);
    assert.equal(bad.body.error.code, 'INVALID_FILTER_VALUE');
  }
});
