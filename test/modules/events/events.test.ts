import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createTestApp } from '../../helpers.ts';
import { purgeExpiredEvents } from '../../../src/platform/events.ts';

const t = await createTestApp();

async function feed(query = '', options: Parameters<typeof t.request>[2] = {}) {
  const res = await t.request('GET', `/events${query}`, options);
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/**
 * The feed shows an event once every older transaction in the cluster has ended; other test files
 * run transactions against the same server, so a just-committed event may take a moment to show.
 */
async function feedUntil(query: string, ready: (body: any) => boolean, options: Parameters<typeof t.request>[2] = {}) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const body = await feed(query, options);
    if (ready(body)) return body;
    if (Date.now() > deadline) throw new Error(`feed${query} did not settle: ${JSON.stringify(body.meta)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const hasId = (uuid: string) => (body: any) => body.data.some((e: { id: string }) => e.id === uuid);

async function latestUuid(): Promise<string> {
  const row = await t.db.db
    .selectFrom('events')
    .select('uuid')
    .where('company_id', '=', t.tenant.companyId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.uuid;
}

test("the feed lists the company's changes newest last, deletions included, with the delivery ids", async () => {
  const created = await t.request('POST', '/clients', { body: { name: 'Feed Co' } });
  const id = created.body.data.id;
  await t.request('PATCH', `/clients/${id}`, { body: { name: 'Feed Co 2' } });
  await t.request('DELETE', `/clients/${id}`);
  const body = await feedUntil(`?record_id=${id}`, (b) => b.data.length === 3);
  assert.deepEqual(
    body.data.map((e: { event: string }) => e.event),
    ['client.created', 'client.updated', 'client.deleted'],
  );
  const stored = await t.db.db
    .selectFrom('events')
    .select(['uuid', 'occurred_at'])
    .where('company_id', '=', t.tenant.companyId)
    .where('record_id', '=', id)
    .orderBy('id')
    .execute();
  assert.deepEqual(
    body.data.map((e: { id: string }) => e.id),
    stored.map((s) => s.uuid),
    'the same id webhook deliveries carry',
  );
  const [first, second, third] = body.data;
  assert.deepEqual(Object.keys(first).sort(), ['action', 'data', 'entity', 'event', 'id', 'occurred_at', 'record_id']);
  assert.equal(first.entity, 'client');
  assert.equal(first.action, 'created');
  assert.equal(first.record_id, id);
  assert.equal(first.occurred_at, stored[0]!.occurred_at);
  assert.equal(first.data.name, 'Feed Co');
  assert.ok(!('contacts' in first.data), 'the lean client, as delivered');
  assert.equal(second.data.name, 'Feed Co 2');
  assert.deepEqual(third.data, { id });
  assert.equal(body.meta.total, 3);
});

test('filters by event and time; cursor pages follow each other without gaps', async () => {
  for (const name of ['A', 'B', 'C', 'D', 'E']) await t.request('POST', '/clients', { body: { name: `Page ${name}` } });
  const all = await feedUntil('?event=client.created&limit=200', hasId(await latestUuid()));
  assert.ok(all.data.every((e: { event: string }) => e.event === 'client.created'));
  const pages: string[] = [];
  let page = await feed('?event=client.created&limit=2');
  pages.push(...page.data.map((e: { id: string }) => e.id));
  while (page.meta.next_cursor) {
    page = await feed(`?limit=2&cursor=${encodeURIComponent(page.meta.next_cursor)}`);
    assert.equal(page.meta.total, undefined, 'cursor pages carry no total');
    pages.push(...page.data.map((e: { id: string }) => e.id));
  }
  assert.deepEqual(
    pages,
    all.data.map((e: { id: string }) => e.id),
  );
  const both = await feed('?event=client.created,client.deleted&limit=200');
  assert.ok(both.data.some((e: { event: string }) => e.event === 'client.deleted'));
  const middle = all.data[2].occurred_at;
  const from = await feed(`?event=client.created&occurred_from=${encodeURIComponent(middle)}&limit=200`);
  assert.ok(from.data.every((e: { occurred_at: string }) => e.occurred_at >= middle));
  const to = await feed(`?event=client.created&occurred_to=${encodeURIComponent(middle)}&limit=200`);
  assert.ok(to.data.every((e: { occurred_at: string }) => e.occurred_at < middle));
  assert.equal(from.data.length + to.data.length, all.data.length);
});

test('a cursor never passes an event whose transaction commits later', async () => {
  const before = await feedUntil('?limit=200', hasId(await latestUuid()));
  const last = before.data.at(-1).id;
  // A write that started earlier and is still open when a later one commits.
  const slow = new pg.Client({ connectionString: t.db.pool.options.connectionString as string });
  await slow.connect();
  try {
    await slow.query('begin');
    const earlyUuid = randomUUID();
    await slow.query(
      `insert into events (company_id, uuid, event, entity, action, record_id, data, occurred_at) values ($1, $2, 'client.updated', 'client', 'updated', 1, '{"id":1}', now())`,
      [t.tenant.companyId, earlyUuid],
    );
    const later = await t.request('POST', '/clients', { body: { name: 'Committed Later' } });
    assert.equal(later.status, 201);
    const during = await feed('?limit=200');
    assert.equal(during.data.at(-1).id, last, 'the later event waits until the earlier transaction ends');
    await slow.query('commit');
    const laterUuid = await latestUuid();
    const afterCommit = await feedUntil('?limit=200', (b) => hasId(earlyUuid)(b) && hasId(laterUuid)(b));
    const newIds = afterCommit.data.slice(before.data.length).map((e: { id: string }) => e.id);
    assert.deepEqual(newIds, [earlyUuid, laterUuid], 'the earlier transaction comes first, nothing is skipped');
  } finally {
    await slow.end();
  }
});

test('events are kept 30 days', async () => {
  const old = await t.request('POST', '/clients', { body: { name: 'Ancient' } });
  const record = old.body.data.id;
  await t.db.db
    .updateTable('events')
    .set({ occurred_at: new Date(Date.now() - 31 * 86_400_000).toISOString() })
    .where('record_id', '=', record)
    .where('company_id', '=', t.tenant.companyId)
    .execute();
  assert.equal((await feed(`?record_id=${record}`)).data.length, 0, 'older than 30 days: not listed');
  assert.ok((await purgeExpiredEvents(t.db.db)) >= 1);
  const left = await t.db.db
    .selectFrom('events')
    .select('id')
    .where('record_id', '=', record)
    .where('company_id', '=', t.tenant.companyId)
    .execute();
  assert.equal(left.length, 0, 'and purged');
});

test('admin only; tenants see only their own events; bad queries are refused', async () => {
  for (const key of ['read', 'write', 'personal', 'personalAdmin'] as const) {
    const res = await t.request('GET', '/events', { key });
    assert.equal(res.status, 403, key);
    assert.equal(res.body.error.code, 'FORBIDDEN');
  }
  const other = await t.newTenant();
  await t.request('POST', '/clients', { tenant: other, body: { name: 'Theirs' } });
  const theirs = await feedUntil('', (b) => b.data.length === 1, { tenant: other });
  assert.equal(theirs.data.length, 1);
  const mine = await feed('?limit=200');
  assert.ok(!mine.data.some((e: { id: string }) => e.id === theirs.data[0].id));
  assert.equal((await t.request('GET', '/events?colour=red')).body.error.code, 'UNKNOWN_FILTER_FIELD');
  assert.equal((await t.request('GET', '/events?event=client.exploded')).status, 422);
  assert.equal((await t.request('GET', '/events?occurred_from=yesterday')).status, 422);
  assert.equal((await t.request('GET', '/events?cursor=garbage')).body.error.code, 'INVALID_CURSOR');
  assert.equal(
    (await t.request('GET', '/events?sort=-id')).body.error.code,
    'UNKNOWN_FILTER_FIELD',
    'the order is fixed',
  );
  const foreignCursor = (await feed('?limit=1', { tenant: other })).meta.next_cursor;
  assert.equal(foreignCursor, null);
});

test('the OpenAPI document presents GET /events as a stable addition', async () => {
  const doc = (await t.request('GET', '/openapi.json', { key: null, company: null })).body;
  const op = doc.paths['/events'].get;
  assert.equal(op['x-preview'], false);
  assert.equal(op['x-stability'], 'stable-addition');
  assert.match(op.description, /Stable addition/);
  assert.deepEqual(op.tags, ['Events']);
});
