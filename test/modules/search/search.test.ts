import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();
const member = t.tenant.memberPersonId;

async function post(path: string, body: Record<string, unknown>, tenant?: TenantFixture): Promise<number> {
  const res = await t.request('POST', path, { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

async function insertTask(
  title: string,
  values: Record<string, unknown> = {},
  companyId = t.tenant.companyId,
): Promise<number> {
  const { assignee, ...rest } = values;
  const row = await t.db.db
    .insertInto('tasks')
    .values({ company_id: companyId, title, ...rest } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  if (assignee)
    await t.db.db
      .insertInto('task_assignees')
      .values({ company_id: companyId, task_id: row.id, person_id: assignee as number })
      .execute();
  return row.id;
}

const typeId = (
  await t.db.db
    .selectFrom('project_types')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .orderBy('id')
    .executeTakeFirstOrThrow()
).id;
const clientA = await post('/clients', { name: 'Alpha client' });
const clientC = await post('/clients', { name: 'Hidden client' });
await t.db.db
  .insertInto('client_members')
  .values({ company_id: t.tenant.companyId, client_id: clientA, person_id: member, role: null, workflow_role_id: null })
  .execute();

const ids = {
  taskA: await insertTask('Alpha report', { client_id: clientA }),
  taskHidden: await insertTask('Beta alpha', { client_id: clientC }),
  taskAssigned: await insertTask('Gamma ALPHA', { client_id: clientC, assignee: member }),
  taskTemplate: await insertTask('Alpha template', { template_kind: 'workflow_template' }),
  taskDeleted: await insertTask('Alpha deleted', { client_id: clientA, deleted_at: new Date().toISOString() }),
  contactA: await post('/contacts', {
    client_id: clientA,
    name: 'Fred',
    surname: 'Alphason',
    email: 'fred@example.com',
  }),
  contactMail: await post('/contacts', { client_id: clientA, name: 'Zed', email: 'zed@alpha.example' }),
  contactHidden: await post('/contacts', { client_id: clientC, name: 'Alphonse', surname: 'Alpha' }),
  projectA: await post('/projects', { name: 'Alpha launch', project_type_id: typeId, client_id: clientA }),
  projectHidden: await post('/projects', { name: 'Secret alpha', project_type_id: typeId, client_id: clientC }),
  projectManaged: await post('/projects', {
    name: 'Managed alpha',
    project_type_id: typeId,
    client_id: clientC,
    manager_id: member,
  }),
};

const other = await t.newTenant({ name: 'Other Co' });
await insertTask('Alpha elsewhere', {}, other.companyId);

const hit = (type: string, id: number) => `${type}:${id}`;
const hits = (body: { data: Array<{ type: string; id: number }> }) => body.data.map((h) => hit(h.type, h.id));

test('finds tasks, contacts and projects (never clients), title-prefix matches first, then by title', async () => {
  const res = await t.request('GET', '/search?q=alpha', { key: 'read' });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('x-api-preview'), null, 'search is a stable route');
  assert.deepEqual(hits(res.body), [
    // Prefix matches (a contact's surname or e-mail counts) come first, each group by title.
    hit('project', ids.projectA),
    hit('task', ids.taskA),
    hit('contact', ids.contactHidden),
    hit('contact', ids.contactA),
    hit('task', ids.taskHidden),
    hit('task', ids.taskAssigned),
    hit('project', ids.projectManaged),
    hit('project', ids.projectHidden),
    hit('contact', ids.contactMail),
  ]);
  assert.deepEqual(res.body.meta, { limit: 50, offset: 0, total: 9, has_more: false });
  const byKey = Object.fromEntries(res.body.data.map((h: { type: string; id: number }) => [hit(h.type, h.id), h]));
  assert.deepEqual(byKey[hit('task', ids.taskA)], {
    type: 'task',
    id: ids.taskA,
    title: 'Alpha report',
    subtitle: 'new',
    client_id: clientA,
  });
  assert.deepEqual(byKey[hit('contact', ids.contactA)], {
    type: 'contact',
    id: ids.contactA,
    title: 'Fred Alphason',
    subtitle: 'fred@example.com',
    client_id: clientA,
  });
  assert.deepEqual(byKey[hit('project', ids.projectA)], {
    type: 'project',
    id: ids.projectA,
    title: 'Alpha launch',
    subtitle: 'active',
    client_id: clientA,
  });
  assert.ok(!JSON.stringify(res.body).includes('Alpha client'), 'clients are found with GET /clients?q=');
});

test('types narrows the kinds; limit and offset page through the hits', async () => {
  const res = await t.request('GET', '/search?q=alpha&types=project,contact');
  assert.equal(res.status, 200, res.text);
  assert.ok(res.body.data.every((h: { type: string }) => h.type !== 'task'));
  assert.equal(res.body.meta.total, 6);
  const tasks = await t.request('GET', '/search?q=alpha&types=task');
  assert.deepEqual(hits(tasks.body), [
    hit('task', ids.taskA),
    hit('task', ids.taskHidden),
    hit('task', ids.taskAssigned),
  ]);
  const page = await t.request('GET', '/search?q=alpha&limit=4&offset=4');
  assert.equal(page.body.data.length, 4);
  assert.deepEqual(page.body.meta, { limit: 4, offset: 4, total: 9, has_more: true });
  const last = await t.request('GET', '/search?q=alpha&limit=4&offset=8');
  assert.deepEqual(last.body.meta, { limit: 4, offset: 8, total: 9, has_more: false });
});

test('bad queries: q missing, empty or 256 characters is 400; an unknown type is 422; unknown parameters 400', async () => {
  for (const query of ['', '?q=', `?q=${'x'.repeat(256)}`, '?q=a&limit=0', '?q=a&offset=10001']) {
    const res = await t.request('GET', `/search${query}`);
    assert.equal(res.status, 400, `${query}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  const ok = await t.request('GET', `/search?q=${'x'.repeat(255)}`);
  assert.equal(ok.status, 200);
  const badType = await t.request('GET', '/search?q=a&types=task,client');
  assert.equal(badType.status, 422);
  assert.equal(badType.body.error.code, 'INVALID_FILTER_VALUE');
  assert.equal(badType.body.error.details.field, 'types');
  const unknown = await t.request('GET', '/search?q=a&cursor=abc');
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'UNKNOWN_FILTER_FIELD');
});

test("wildcards in q are matched literally; another tenant's records never show", async () => {
  const pct = await insertTask('Discount 50% off');
  assert.deepEqual(hits((await t.request('GET', '/search?q=%25')).body), [hit('task', pct)]);
  assert.deepEqual((await t.request('GET', '/search?q=elsewhere')).body.data, []);
  assert.equal((await t.request('GET', '/search?q=elsewhere', { tenant: other })).body.data.length, 1);
});

test("a member finds only what they may see; the owner's personal key finds everything", async () => {
  const mine = await t.request('GET', '/search?q=alpha', { key: 'personal' });
  assert.equal(mine.status, 200, mine.text);
  assert.deepEqual(
    hits(mine.body).sort(),
    [
      hit('project', ids.projectA),
      hit('task', ids.taskA),
      hit('contact', ids.contactA),
      hit('task', ids.taskAssigned),
      hit('project', ids.projectManaged),
      hit('contact', ids.contactMail),
    ].sort(),
  );
  assert.equal(mine.body.meta.total, 6);
  const owner = await t.request('GET', '/search?q=alpha', { key: 'personalAdmin' });
  assert.equal(owner.body.meta.total, 9);
});
