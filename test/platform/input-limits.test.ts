import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type Response } from '../helpers.ts';
import { makeFixtures } from '../support/fixtures.ts';

const t = await createTestApp();
const made = await makeFixtures(t, t.tenant, ['client_id', 'client_member_id', 'task_id', 'project_type_id']);
const NUL = 'a\u0000b';

const count = async (table: string) =>
  Number(
    (
      await sql<{
        n: string;
      }>`select count(*) as n from ${sql.table(table)} where company_id = ${t.tenant.companyId}`.execute(t.db.db)
    ).rows[0]!.n,
  );

function assertRefused(res: Response, field: string, status = 400, code = 'VALIDATION_ERROR'): void {
  assert.equal(res.status, status, `${field}: ${res.status} ${res.text.slice(0, 300)}`);
  assert.equal(res.body.error.code, code);
  assert.equal(typeof res.body.error.message, 'string');
  if (code === 'VALIDATION_ERROR') assert.equal(res.body.error.details.errors[0].field, field);
}

/** nested(3) is {a:{a:{a:1}}}: an object three levels deep. */
const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });
/** The same as JSON text, for depths that would overflow the test's own JSON.stringify. */
const nestedJson = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

test('U+0000 in a body string is 400 VALIDATION_ERROR naming the field, and nothing is written', async () => {
  const cases: Array<[string, string, unknown, string, string]> = [
    ['POST', '/roles', { name: NUL }, 'name', 'roles'],
    ['POST', '/teams', { name: NUL }, 'name', 'teams'],
    [
      'PATCH',
      `/roles/${await makeFixtures(t, t.tenant, ['role_id']).then((m) => m.role_id)}`,
      { name: NUL },
      'name',
      'roles',
    ],
    ['PATCH', `/client-members/${made.client_member_id}`, { role: NUL }, 'role', 'client_members'],
    ['POST', `/tasks/${made.task_id}/comments`, { body: NUL }, 'body', 'task_comments'],
    ['POST', '/clients', { name: 'ok', custom_fields: { note: NUL } }, 'custom_fields.note', 'clients'],
    ['POST', '/clients', { name: 'ok', fields: { [NUL]: 1 } }, 'fields', 'clients'],
    ['POST', '/clients', { name: 'ok', custom_fields: { list: ['x', NUL] } }, 'custom_fields.list.1', 'clients'],
  ];
  for (const [method, path, body, field, table] of cases) {
    const before = await count(table);
    assertRefused(await t.request(method, path, { body }), field);
    assert.equal(await count(table), before, `${method} ${path} wrote nothing`);
  }
  const member = await t.db.db
    .selectFrom('client_members')
    .select('role')
    .where('id', '=', made.client_member_id as number)
    .executeTakeFirstOrThrow();
  assert.equal(member.role, null, 'the client member was not changed');
  const roles = await t.request('GET', '/roles');
  assert.ok(roles.body.data.every((r: { name: string }) => !r.name.includes('\u0000')));
});

test('U+0000 in a query string is 400 VALIDATION_ERROR naming the parameter, filters included', async () => {
  for (const path of ['/clients?q=a%00b', '/tasks?q=%00', '/search?q=x%00y', '/projects?q=%00']) {
    const res = await t.request('GET', path);
    assertRefused(res, new URL(path, 'http://x').searchParams.keys().next().value!);
  }
  const plain = await t.request('GET', '/clients?q=ab');
  assert.equal(plain.status, 200);
});

test('a free-form value nested too deep is 400 naming the field on every resource that stores one', async () => {
  const deep = nestedJson(5000);
  const cases: Array<[string, string, Record<string, unknown>, string]> = [
    ['POST', '/clients', { name: 'Deep' }, 'clients'],
    ['PATCH', `/clients/${made.client_id}`, {}, 'clients'],
    ['POST', '/contacts', { name: 'Deep', client_id: made.client_id }, 'contacts'],
    ['POST', '/projects', { name: 'Deep', project_type_id: made.project_type_id }, 'projects'],
    ['POST', '/tasks', { title: 'Deep' }, 'tasks'],
  ];
  for (const [method, path, body, table] of cases) {
    for (const key of ['custom_fields', 'fields']) {
      const before = await count(table);
      const text = `${JSON.stringify(body).slice(0, -1)}${Object.keys(body).length ? ',' : ''}"${key}":${deep}}`;
      assertRefused(await t.request(method, path, { body: text }), key);
      assert.equal(await count(table), before, `${method} ${path} wrote nothing`);
    }
  }
});

test('free-form values: depth 5, 100 entries per object or array and 32 KB are the bounds', async () => {
  const post = (custom_fields: unknown) => t.request('POST', '/clients', { body: { name: 'Bounds', custom_fields } });
  // custom_fields values are checked against the company's definitions (issue 12): json fields hold the bounds' shapes.
  const define = [
    ['a', 'json'],
    ['list', 'json'],
    ['inner', 'json'],
    ['text', 'text'],
    ...Array.from({ length: 101 }, (_, i) => [`k${i}`, 'number']),
  ];
  await t.db.db
    .insertInto('custom_fields')
    .values(
      define.map(([name, field_type]) => ({
        company_id: t.tenant.companyId,
        name: name!,
        field_type: field_type as 'json',
        entity_type: 'client' as const,
      })),
    )
    .execute();
  const depth5 = await post(nested(5));
  assert.equal(depth5.status, 201, depth5.text);
  assert.deepEqual(depth5.body.data.custom_fields, nested(5));
  const depth6 = await post(nested(6));
  assertRefused(depth6, 'custom_fields');
  assert.match(depth6.body.error.details.errors[0].message, /5 levels/);

  const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
  assert.equal((await post(keys(100))).status, 201);
  assertRefused(await post(keys(101)), 'custom_fields');
  assertRefused(await post({ inner: keys(101) }), 'custom_fields.inner');
  assert.equal((await post({ list: Array.from({ length: 100 }, (_, i) => i) })).status, 201);
  assertRefused(await post({ list: Array.from({ length: 101 }, (_, i) => i) }), 'custom_fields.list');

  const text = (bytes: number) => ({ text: 'x'.repeat(bytes - '{"text":""}'.length) });
  const at32k = await post(text(32 * 1024));
  assert.equal(at32k.status, 201, at32k.text.slice(0, 300));
  const big = await post(text(32 * 1024 + 1));
  assertRefused(big, 'custom_fields');
  assert.match(big.body.error.details.errors[0].message, /32768 bytes/);
});

test('the default body limit is 1 MB: a larger body is 413 PAYLOAD_TOO_LARGE and nothing is written', async () => {
  const before = await count('clients');
  const res = await t.request('POST', '/clients', { body: { name: 'Huge', notes: 'x'.repeat(1024 * 1024 + 10) } });
  assertRefused(res, '', 413, 'PAYLOAD_TOO_LARGE');
  assert.deepEqual(Object.keys(res.body.error), ['code', 'message']);
  assert.equal(await count('clients'), before);
  // Just under the limit the body is read and judged by the schema (notes is not a client field).
  const under = await t.request('POST', '/clients', { body: { name: 'Huge', notes: 'x'.repeat(1000 * 1000) } });
  assert.equal(under.status, 400);
});

test('POST /time-entries/bulk takes a full bulk of long entries (over 1 MB) up to its own 4 MB limit', async () => {
  const entry = (i: number) => ({
    task_id: made.task_id,
    person_id: t.tenant.ownerPersonId,
    start: new Date(Date.parse('2026-05-01T00:00:00Z') + i * 3600_000).toISOString(),
    duration: 600,
    description: 'd'.repeat(10_000),
  });
  const full = { entries: Array.from({ length: 200 }, (_, i) => entry(i)) };
  assert.ok(JSON.stringify(full).length > 1.9 * 1024 * 1024);
  const before = await count('time_entries');
  const res = await t.request('POST', '/time-entries/bulk', { body: full });
  assert.equal(res.status, 201, res.text.slice(0, 300));
  assert.equal(res.body.data.length, 200);
  assert.equal(await count('time_entries'), before + 200);

  const tooBig = { entries: [{ ...entry(500), description: 'x'.repeat(4 * 1024 * 1024) }] };
  const refused = await t.request('POST', '/time-entries/bulk', { body: tooBig });
  assertRefused(refused, '', 413, 'PAYLOAD_TOO_LARGE');
  assert.equal(await count('time_entries'), before + 200);
});
