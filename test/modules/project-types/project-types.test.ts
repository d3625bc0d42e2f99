import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createTestApp } from '../../helpers.ts';

const t = await createTestApp();

test('a new company starts with the default project types, listed offset-only with the preview header', async () => {
  const res = await t.request('GET', '/project-types', { key: 'read' });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  assert.deepEqual(
    res.body.data.map((p: { name: string }) => p.name),
    ['General', 'Event', 'Internal'],
  );
  assert.deepEqual(Object.keys(res.body.data[0]).sort(), ['created_at', 'id', 'name', 'status', 'updated_at']);
  assert.equal(res.body.data[0].status, 'active');
  assert.deepEqual(res.body.meta, { total: 3, limit: 50, offset: 0, has_more: false });

  const one = await t.request('GET', `/project-types/${res.body.data[1].id}`, { key: 'read' });
  assert.equal(one.status, 200, one.text);
  assert.equal(one.headers.get('x-api-preview'), 'true');
  assert.deepEqual(one.body.data, res.body.data[1]);
  assert.equal(one.headers.get('etag'), `"${one.body.data.updated_at}"`);
});

test('filters status and q, sort, paging; bad values and cursors refused', async () => {
  const inactive = await t.db.db
    .insertInto('project_types')
    .values({ company_id: t.tenant.companyId, name: 'Old campaign', status: 'inactive' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const names = async (query: string) => {
    const res = await t.request('GET', `/project-types?${query}`);
    assert.equal(res.status, 200, res.text);
    return res.body.data.map((p: { name: string }) => p.name);
  };
  assert.deepEqual(await names('status=inactive'), ['Old campaign']);
  assert.deepEqual(await names('q=EVE'), ['Event']);
  assert.deepEqual(await names('sort=name'), ['Event', 'General', 'Internal', 'Old campaign']);
  const page = await t.request('GET', '/project-types?limit=2&offset=2');
  assert.deepEqual(page.body.data.map((p: { id: number }) => p.id).at(-1), inactive.id);
  assert.deepEqual(page.body.meta, { total: 4, limit: 2, offset: 2, has_more: false });
  const bad = await t.request('GET', '/project-types?status=archived');
  assert.equal(bad.status, 422);
  assert.equal(bad.body.error.code, 'INVALID_FILTER_VALUE');
  const cursor = await t.request('GET', '/project-types?cursor=abc');
  assert.equal(cursor.status, 400);
  assert.equal(cursor.body.error.code, 'INVALID_CURSOR');
  const unknown = await t.request('GET', '/project-types?colour=red');
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
});

test("another tenant's or a deleted project type answers 404 (with the preview header)", async () => {
  const other = await t.newTenant({ name: 'Other Co' });
  const foreign = await t.db.db
    .selectFrom('project_types')
    .select('id')
    .where('company_id', '=', other.companyId)
    .executeTakeFirstOrThrow();
  const mine = await t.db.db
    .selectFrom('project_types')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .execute();
  assert.ok(!mine.some((r) => r.id === foreign.id), 'ids are per company');
  const res = await t.request('GET', `/project-types/${foreign.id}`);
  assert.equal(res.status, 404);
  assert.equal(res.body.error.code, 'NOT_FOUND');
  assert.equal(res.headers.get('x-api-preview'), 'true');
  const deleted = await t.db.db
    .insertInto('project_types')
    .values({ company_id: t.tenant.companyId, name: 'Removed', status: 'active', deleted_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  assert.equal((await t.request('GET', `/project-types/${deleted.id}`)).status, 404);
  assert.deepEqual((await t.request('GET', '/project-types?q=Removed')).body.data, []);
});

test('the migration backfills the defaults for companies that have no project types, and only for them', async () => {
  const migration = await readFile(
    new URL('../../../src/db/migrations/0030_projects_relations_members.sql', import.meta.url),
    'utf8',
  );
  const backfill = migration.slice(
    migration.indexOf('INSERT INTO project_types'),
    migration.indexOf(';', migration.indexOf('INSERT INTO project_types')) + 1,
  );
  const bare = randomUUID();
  await t.db.db.insertInto('companies').values({ id: bare, name: 'Pre-existing Co' }).execute();
  const count = async (companyId: string) =>
    (
      await t.db.db
        .selectFrom('project_types')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow()
    ).n;
  const seededBefore = await count(t.tenant.companyId);
  await sql.raw(backfill).execute(t.db.db);
  const rows = await t.db.db
    .selectFrom('project_types')
    .select(['name', 'status'])
    .where('company_id', '=', bare)
    .orderBy('id')
    .execute();
  assert.deepEqual(rows, [
    { name: 'General', status: 'active' },
    { name: 'Event', status: 'active' },
    { name: 'Internal', status: 'active' },
  ]);
  assert.equal(await count(t.tenant.companyId), seededBefore, 'companies that already have types get none');
});

test('project types need a key: no key is 401', async () => {
  const res = await t.request('GET', '/project-types', { key: null });
  assert.equal(res.status, 401);
  assert.equal(res.body.error.code, 'MISSING_AUTH');
});
