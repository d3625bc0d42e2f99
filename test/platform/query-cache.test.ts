// Cached query shapes (src/platform/query-cache.ts): built once, filled per call, and never cached when the
// builder depends on anything but its slots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp } from '../helpers.ts';
import type { Ctx } from '../../src/platform/context.ts';
import { cachedQuery } from '../../src/platform/query-cache.ts';
import { scoped } from '../../src/platform/tenant-table.ts';
import { rowVisible } from '../../src/platform/visibility.ts';
import { clientListShapes, clientReadCached } from '../../src/modules/clients/clients.repository.ts';

const t = await createTestApp();
const other = await t.newTenant();

function ctxOf(companyId: string, restricted = false, personId: number | null = null): Ctx {
  return {
    db: t.db.db,
    companyId,
    actor: { personId, role: restricted ? 'member' : 'owner', restricted },
    company: { timezone: 'UTC' },
    key: { scopes: [] },
  } as unknown as Ctx;
}

async function client(name: string, tenant = t.tenant, body: object = {}): Promise<number> {
  const res = await t.request('POST', '/clients', { tenant, body: { name, ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

test('a cached shape fills in the arguments and the company on every call', async () => {
  const a = await client('Alpha');
  const b = await client('Beta');
  const foreign = await client('Foreign', other);
  const byId = cachedQuery((ctx: Ctx, id: number) =>
    scoped.select(ctx, 'clients', 'c').select(['c.id', 'c.name']).where('c.id', '=', id),
  );
  const ours = ctxOf(t.tenant.companyId);
  assert.deepEqual(await byId(ours, a), [{ id: a, name: 'Alpha' }]);
  assert.equal(byId.cachedFor(ours), false, 'a shape is learned the second time it is seen');
  assert.deepEqual(await byId(ours, a), [{ id: a, name: 'Alpha' }]);
  assert.equal(byId.cachedFor(ours), true);
  assert.deepEqual(await byId(ours, b), [{ id: b, name: 'Beta' }]);
  assert.deepEqual(await byId(ours, foreign), [], "another company's row stays out");
  assert.deepEqual(await byId(ctxOf(other.companyId), foreign), [{ id: foreign, name: 'Foreign' }]);
});

test('restricted and all-seeing actors get shapes of their own, the person filled in per call', async () => {
  const mine = await client('Mine', t.tenant, { default_person_id: t.tenant.memberPersonId });
  const theirs = await client('Theirs', t.tenant, { default_person_id: t.tenant.ownerPersonId });
  const visibleById = cachedQuery((ctx: Ctx, id: number) =>
    scoped
      .select(ctx, 'clients', 'c')
      .select('c.id')
      .where('c.id', '=', id)
      .where(rowVisible(ctx, 'clients', 'c')),
  );
  const member = ctxOf(t.tenant.companyId, true, t.tenant.memberPersonId);
  const owner = ctxOf(t.tenant.companyId, true, t.tenant.ownerPersonId);
  assert.deepEqual(await visibleById(member, mine), [{ id: mine }]);
  assert.deepEqual(await visibleById(member, mine), [{ id: mine }]);
  assert.equal(visibleById.cachedFor(member), true);
  assert.equal(visibleById.cachedFor(ctxOf(t.tenant.companyId)), false, 'the all-seeing shape is not learned yet');
  assert.deepEqual(await visibleById(member, theirs), []);
  assert.deepEqual(await visibleById(owner, theirs), [{ id: theirs }], 'the person is a slot, not baked in');
  assert.deepEqual(await visibleById(ctxOf(t.tenant.companyId), theirs), [{ id: theirs }]);
});

test('a builder that branches on an argument is not cached, and answers right for every value', async () => {
  const a = await client('Gamma');
  const branching = cachedQuery((ctx: Ctx, id: number) => {
    const base = scoped.select(ctx, 'clients', 'c').select('c.id');
    return typeof id === 'number' ? base.where('c.id', '=', id) : base.where('c.id', '<', 0);
  });
  const ctx = ctxOf(t.tenant.companyId);
  for (let i = 0; i < 3; i++) assert.deepEqual(await branching(ctx, a), [{ id: a }]);
  assert.equal(branching.cachedFor(ctx), false);
});

test('a builder that reads the company, the key or the role is not cached', async () => {
  const a = await client('Delta');
  const ctx = ctxOf(t.tenant.companyId);
  const readers = [
    (c: Ctx) => sql<boolean>`${c.company.timezone} = 'UTC'`,
    (c: Ctx) => sql<boolean>`${c.key.scopes.length} = 0`,
    (c: Ctx) => sql<boolean>`${c.actor.role} = 'owner'`,
  ];
  for (const read of readers) {
    const query = cachedQuery((c: Ctx, id: number) =>
      scoped.select(c, 'clients', 'c').select('c.id').where('c.id', '=', id).where(read(c)),
    );
    for (let i = 0; i < 2; i++) assert.deepEqual(await query(ctx, a), [{ id: a }]);
    assert.equal(query.cachedFor(ctx), false);
  }
});

test('GET /clients/{id} runs a cached shape, for an admin key and a personal key alike', async () => {
  const visible = await client('Seen', t.tenant, { default_person_id: t.tenant.memberPersonId });
  const hidden = await client('Unseen');
  for (let i = 0; i < 2; i++) assert.equal((await t.request('GET', `/clients/${hidden}`)).status, 200);
  assert.equal(clientReadCached(ctxOf(t.tenant.companyId)), true);
  for (let i = 0; i < 2; i++)
    assert.equal((await t.request('GET', `/clients/${visible}`, { key: 'personal' })).status, 200);
  assert.equal(clientReadCached(ctxOf(t.tenant.companyId, true)), true);
  const refused = await t.request('GET', `/clients/${hidden}`, { key: 'personal' });
  assert.equal(refused.status, 404);
  assert.equal(refused.body.error.code, 'NOT_FOUND');
  const foreign = await t.request('GET', `/clients/${visible}`, { tenant: other });
  assert.equal(foreign.status, 404);
});

test('a cached list fills in the company, numeric filters, limit, offset and keyset values', async () => {
  const tenant = await t.newTenant();
  const stranger = await t.newTenant();
  const names = ['L1', 'L2', 'L3', 'L4', 'L5'];
  const ids: number[] = [];
  for (const [i, name] of names.entries())
    ids.push(await client(name, tenant, i < 2 ? { default_person_id: tenant.memberPersonId } : {}));
  const foreign = await client('Stranger', stranger);
  const list = (query: string, options: object = {}) => t.request('GET', `/clients?${query}`, { tenant, ...options });
  const idsOf = (res: { body: { data: Array<{ id: number }> } }) => res.body.data.map((c) => c.id);

  const before = clientListShapes.size;
  await list('limit=2');
  const first = await list('limit=2');
  assert.deepEqual(idsOf(first), ids.slice(0, 2));
  assert.equal(first.body.meta.total, 5);
  assert.ok(clientListShapes.size >= before + 2, 'the page and its count are cached shapes');
  assert.deepEqual(idsOf(await list('limit=2&offset=2')), ids.slice(2, 4));
  assert.deepEqual(idsOf(await list('limit=3&offset=3')), ids.slice(3));
  const theirs = await t.request('GET', '/clients', { tenant: stranger });
  assert.deepEqual(idsOf(theirs), [foreign]);
  assert.equal(theirs.body.meta.total, 1);

  const mine = await list(`default_person_id=${tenant.memberPersonId}`);
  assert.deepEqual(idsOf(mine), ids.slice(0, 2));
  assert.equal(mine.body.meta.total, 2);
  const owners = await list(`default_person_id=${tenant.ownerPersonId}`);
  assert.deepEqual(idsOf(owners), []);
  assert.equal(owners.body.meta.total, 0);

  const walked: number[] = [];
  let page = await list('limit=2&sort=-name');
  for (;;) {
    walked.push(...idsOf(page));
    if (!page.body.meta.next_cursor) break;
    page = await list(`cursor=${encodeURIComponent(page.body.meta.next_cursor)}`);
    assert.equal(page.status, 200, page.text);
  }
  assert.deepEqual(walked, [...ids].reverse(), 'the keyset values are filled in on every page');

  const restricted = await list('', { key: tenant.keys.personal });
  assert.deepEqual(idsOf(restricted), ids.slice(0, 2), 'a personal key sees its own clients only');
});

test('a list base that closes over the caller ctx is never cached', async () => {
  const { listPage } = await import('../../src/platform/lists.ts');
  const { ShapeCache } = await import('../../src/platform/query-cache.ts');
  const shapes = new ShapeCache();
  const a = await client('Closure A');
  const ours = ctxOf(t.tenant.companyId);
  for (let i = 0; i < 3; i++) {
    const page = await listPage<{ id: number }>(ours, {
      listId: 'closure-test',
      params: { limit: 200 },
      options: {},
      idColumn: 'c.id',
      project: (q: never) => (q as ReturnType<typeof scoped.select<'clients', 'c'>>).select('c.id'),
      base: () => scoped.select(ours, 'clients', 'c'),
      cache: { shapes, key: '' },
    });
    assert.ok(page.data.some((row) => row.id === a));
  }
  assert.equal(shapes.size, 0, "the caller's company id appears as a constant, so the shape is refused");
});

// Decision 0068: a prepared statement's generic plan knows no parameter's value, so the builder's constants and
// the page's LIMIT are written into a cached shape's text; only the per-call values stay parameters.
test('a cached list shape carries its constants and its limit in the text, the per-call values as parameters', async () => {
  const tenant = await t.newTenant();
  const ids = [await client('P1', tenant), await client('P2', tenant), await client('P3', tenant)];
  const list = (query: string) => t.request('GET', `/clients?${query}`, { tenant });
  for (let i = 0; i < 3; i++)
    assert.deepEqual(
      (await list('limit=2')).body.data.map((c: { id: number }) => c.id),
      ids.slice(0, 2),
    );
  const page = clientListShapes
    .statements()
    .find((text) => /order by "c"\."id" asc, "c"\."id" asc limit 3$/.test(text));
  assert.ok(
    page,
    `the first page's shape ends in its literal limit (limit + 1), with no offset: ${clientListShapes.statements().join('\n')}`,
  );
  assert.match(page, /"c"\."type" <> 'plan'/, 'the constant that the partial index clients_live_work_id names');
  assert.match(page, /"c"\."company_id" = \$1 and/, 'the company stays a parameter, renumbered');
  assert.doesNotMatch(page, /\$2/);
  const count = clientListShapes.statements().find((text) => text.includes('limit 10001'));
  assert.ok(count, 'the count cap is a literal too');

  for (let i = 0; i < 3; i++) {
    const later = await list('limit=2&offset=1');
    assert.deepEqual(
      later.body.data.map((c: { id: number }) => c.id),
      ids.slice(1, 3),
      'a later offset page',
    );
  }
  assert.ok(
    clientListShapes.statements().some((text) => /limit 3 offset \$2$/.test(text)),
    'its offset is a parameter',
  );
});

test('only plain constants are written out: quoted text, identifiers and comments keep their $n', async () => {
  const a = await client("O'Brien & Sons");
  const text = `'$1 isn''t a parameter' /* nor $2 */`;
  const query = cachedQuery((c: Ctx, id: number, name: string) =>
    scoped
      .select(c, 'clients', 'c')
      .select(['c.id', sql<string>`${sql.raw(text)}`.as('note')])
      .where('c.id', '=', id)
      .where('c.name', '=', name)
      .where('c.status', '<>', 'gone'),
  );
  const ctx = ctxOf(t.tenant.companyId);
  for (let i = 0; i < 3; i++)
    assert.deepEqual(await query(ctx, a, "O'Brien & Sons"), [{ id: a, note: "$1 isn't a parameter" }]);
  assert.equal(query.cachedFor(ctx), true);
  assert.deepEqual(await query(ctx, a, 'Someone else'), [], 'the name is a slot, filled in per call');

  const byName = await t.request('GET', `/clients?name=${encodeURIComponent("O'Brien & Sons")}`);
  for (let i = 0; i < 2; i++) await t.request('GET', `/clients?name=${encodeURIComponent("O'Brien & Sons")}`);
  assert.deepEqual(
    byName.body.data.map((c: { id: number }) => c.id),
    [a],
  );
  assert.ok(
    clientListShapes.statements().some((s) => s.includes('"c"."name" = $') && !s.includes("O'Brien")),
    'a text filter with a quote stays a parameter',
  );
});
