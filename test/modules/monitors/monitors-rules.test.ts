import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

/** MONITOR_EXISTS, MONITOR_OVERLAP, clients.has_monitor and the nested client routes. */
const t = await createTestApp();

async function newClient(): Promise<number> {
  const row = await t.db.db
    .insertInto('clients')
    .values({ company_id: t.tenant.companyId, name: 'Watched' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function clientFlag(id: number) {
  const res = await t.request('GET', `/clients/${id}`);
  assert.equal(res.status, 200, res.text);
  return { flag: res.body.data.has_monitor as number, updated_at: res.body.data.updated_at as string };
}

/** The monitor's current ETag, for the writes that need If-Match. */
async function ifMatch(id: number) {
  const res = await t.request('GET', `/monitors/${id}`);
  assert.equal(res.status, 200, res.text);
  return { 'if-match': res.headers.get('etag')! };
}

async function create(body: Record<string, unknown>) {
  const res = await t.request('POST', '/monitors', { body });
  assert.equal(res.status, 201, res.text);
  return res;
}

const base = (clientId: number) => ({ client_id: clientId, type: 'revenue', frequency: 'month', value: 100 });

test('MONITOR_EXISTS: one live monitor per client, type, person and frequency (inactive ones count)', async () => {
  const client = await newClient();
  const first = (await create({ ...base(client), active: false, range_value: 200 })).body.data;
  const again = await t.request('POST', '/monitors', { body: { ...base(client), value: 5000 } });
  assert.equal(again.status, 409);
  assert.equal(again.body.error.code, 'MONITOR_EXISTS');
  assert.equal(again.body.error.details.existing_id, first.id);
  const nested = await t.request('POST', `/clients/${client}/monitors`, {
    body: { type: 'revenue', frequency: 'month', value: 1 },
  });
  assert.equal(nested.body.error.code, 'MONITOR_EXISTS');
  // Any one of the four differing makes another monitor.
  const person = (await create({ ...base(client), role_person_id: t.tenant.memberPersonId })).body.data;
  const yearly = (await create({ ...base(client), frequency: 'year' })).body.data;
  await create({ ...base(client), type: 'hours' });
  await create(base(await newClient()));
  const samePerson = await t.request('POST', '/monitors', {
    body: { ...base(client), role_person_id: t.tenant.memberPersonId },
  });
  assert.equal(samePerson.status, 409);

  const clash = await t.request('PATCH', `/monitors/${yearly.id}`, { body: { frequency: 'month' } });
  assert.equal(clash.status, 409);
  assert.equal(clash.body.error.details.existing_id, first.id);
  const clashPerson = await t.request('PATCH', `/monitors/${person.id}`, { body: { role_person_id: null } });
  assert.equal(clashPerson.status, 409);

  const deleted = await t.request('DELETE', `/monitors/${first.id}`, { headers: await ifMatch(first.id) });
  assert.equal(deleted.status, 204);
  const reborn = await t.request('POST', '/monitors', { body: base(client) });
  assert.equal(reborn.status, 201, 'a deleted monitor no longer holds its place');
});

test('MONITOR_OVERLAP: an active band of the same client and type that meets [value, range_value] warns', async () => {
  const client = await newClient();
  const a = (await create({ ...base(client), value: 100, range_value: 200 })).body.data;
  const touching = await create({ ...base(client), frequency: 'week', value: 200, range_value: 300 });
  const warning = touching.body.warnings[0];
  assert.equal(warning.code, 'MONITOR_OVERLAP');
  assert.deepEqual(warning.details, { overlapping_ids: [a.id], client_id: client, type: 'revenue' });
  assert.deepEqual(JSON.parse(touching.headers.get('x-service-warning')!), touching.body.warnings);

  const apart = await create({ ...base(client), frequency: 'quarter', value: 300.01, range_value: 400 });
  assert.equal(apart.body.warnings, undefined);
  assert.equal(apart.headers.get('x-service-warning'), null);
  const open = await create({ ...base(client), frequency: 'year', value: 350 });
  assert.deepEqual(open.body.warnings[0].details.overlapping_ids, [apart.body.data.id]);
  const otherType = await create({ ...base(client), type: 'hours', value: 150, range_value: 160 });
  assert.equal(otherType.body.warnings, undefined);
  const inactive = await create({
    ...base(client),
    role_person_id: t.tenant.ownerPersonId,
    value: 150,
    range_value: 160,
    active: false,
  });
  assert.equal(inactive.body.warnings, undefined, 'an inactive monitor watches nothing');

  // Activating it, or moving a band into another, warns on PATCH too.
  const activated = await t.request('PATCH', `/monitors/${inactive.body.data.id}`, { body: { active: true } });
  assert.equal(activated.status, 200);
  assert.deepEqual(activated.body.warnings[0].details.overlapping_ids, [a.id]);
  assert.ok(activated.headers.get('x-service-warning'));
  const moved = await t.request('PATCH', `/monitors/${otherType.body.data.id}`, {
    body: { value: 10, range_value: 20 },
    headers: await ifMatch(otherType.body.data.id),
  });
  assert.equal(moved.body.warnings, undefined);
  const renamed = await t.request('PATCH', `/monitors/${touching.body.data.id}`, { body: { role_person_id: null } });
  assert.equal(renamed.body.warnings, undefined, 'a write that leaves the band alone does not re-warn');
});

test('has_monitor is 1 while the client has an active monitor, kept in step by every write', async () => {
  const [c1, c2] = [await newClient(), await newClient()];
  const start = await clientFlag(c1);
  assert.equal(start.flag, 0);
  const idle = (await create({ ...base(c1), active: false })).body.data;
  const afterIdle = await clientFlag(c1);
  assert.deepEqual(afterIdle, start, 'an inactive monitor changes neither the flag nor the ETag');

  const on = await t.request('PATCH', `/monitors/${idle.id}`, { body: { active: true } });
  assert.equal(on.status, 200);
  const flipped = await clientFlag(c1);
  assert.equal(flipped.flag, 1);
  assert.notEqual(flipped.updated_at, start.updated_at, "the client's ETag moves with the flag");

  const second = (await create({ ...base(c1), frequency: 'week' })).body.data;
  assert.deepEqual(await clientFlag(c1), flipped, 'already 1: no new client version');

  await t.request('PATCH', `/monitors/${idle.id}`, { body: { active: false } });
  assert.equal((await clientFlag(c1)).flag, 1, 'the second monitor is still active');
  const moved = await t.request('PATCH', `/monitors/${second.id}`, { body: { client_id: c2 } });
  assert.equal(moved.status, 200, moved.text);
  assert.equal((await clientFlag(c1)).flag, 0);
  assert.equal((await clientFlag(c2)).flag, 1);

  const del = await t.request('DELETE', `/monitors/${second.id}`, { headers: await ifMatch(second.id) });
  assert.equal(del.status, 204);
  assert.equal((await clientFlag(c2)).flag, 0);
  const nested = await t.request('POST', `/clients/${c2}/monitors`, {
    body: { type: 'margin', frequency: 'year', value: 0 },
  });
  assert.equal(nested.status, 201);
  assert.equal((await clientFlag(c2)).flag, 1);
  const stored = await t.db.db
    .selectFrom('clients')
    .select(['id', 'has_monitor'])
    .where('company_id', '=', t.tenant.companyId)
    .where('id', 'in', [c1, c2])
    .orderBy('id')
    .execute();
  assert.deepEqual(stored, [
    { id: c1, has_monitor: 0 },
    { id: c2, has_monitor: 1 },
  ]);
});

test('a failed monitor write leaves has_monitor as it was (same transaction)', async () => {
  const client = await newClient();
  await create(base(client));
  const refused = await t.request('POST', `/clients/${client}/monitors`, {
    body: { type: 'revenue', frequency: 'month', value: 5 },
  });
  assert.equal(refused.status, 409);
  const m = (await t.request('GET', `/monitors?client_id=${client}`)).body.data[0];
  const stale = await t.request('DELETE', `/monitors/${m.id}`, { headers: { 'if-match': '"2000-01-01T00:00:00Z"' } });
  assert.equal(stale.status, 412);
  assert.equal((await clientFlag(client)).flag, 1);
});

test('the nested routes act on the path client: its list only, its id on create; client_id in the body is refused', async () => {
  const [mine, another] = [await newClient(), await newClient()];
  const created = await t.request('POST', `/clients/${mine}/monitors`, {
    body: { type: 'hours', frequency: 'week', value: 37.5, range_value: 45 },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('x-api-preview'), 'true');
  assert.equal(created.body.data.client_id, mine);
  await create({ ...base(another) });
  await create({ ...base(mine), frequency: 'year', active: false });
  const list = await t.request('GET', `/clients/${mine}/monitors?limit=1`);
  assert.equal(list.status, 200, list.text);
  assert.equal(list.body.meta.total, 2);
  assert.deepEqual(
    list.body.data.map((x: { id: number }) => x.id),
    [created.body.data.id],
  );
  const cursor = encodeURIComponent(list.body.meta.next_cursor);
  const next = await t.request('GET', `/clients/${mine}/monitors?cursor=${cursor}`);
  assert.equal(next.body.data[0].client_id, mine);
  const elsewhere = await t.request('GET', `/clients/${another}/monitors?cursor=${cursor}`);
  assert.equal(elsewhere.body.error.code, 'INVALID_CURSOR', "a cursor of one client's list is not another's");
  const filtered = await t.request('GET', `/clients/${mine}/monitors?active=false`);
  assert.equal(filtered.body.data.length, 1);
  const clientFilter = await t.request('GET', `/clients/${mine}/monitors?client_id=${another}`);
  assert.equal(clientFilter.body.error.code, 'UNKNOWN_FILTER_FIELD');
  const withClient = await t.request('POST', `/clients/${mine}/monitors`, {
    body: { client_id: another, type: 'margin', frequency: 'week', value: 1 },
  });
  assert.equal(withClient.status, 400);
  assert.equal(withClient.body.error.code, 'VALIDATION_ERROR');
  const deletedClient = await newClient();
  await t.db.db
    .updateTable('clients')
    .set({ deleted_at: new Date().toISOString() })
    .where('id', '=', deletedClient)
    .execute();
  assert.equal((await t.request('GET', `/clients/${deletedClient}/monitors`)).status, 404);
  assert.equal((await t.request('POST', '/monitors', { body: base(deletedClient) })).body.error.code, 'INVALID_CLIENT');
});

test('concurrent creates of one monitor: exactly one 201, the others 409 MONITOR_EXISTS, never 500', async () => {
  const client = await newClient();
  const results = await Promise.all(
    Array.from({ length: 6 }, () =>
      t.request('POST', `/clients/${client}/monitors`, { body: { type: 'hours', frequency: 'month', value: 1 } }),
    ),
  );
  const statuses = results.map((r) => r.status).sort();
  assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409]);
  assert.equal((await clientFlag(client)).flag, 1);
});
