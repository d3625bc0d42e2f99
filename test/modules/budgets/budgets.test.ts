import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

const t = await createTestApp();
const other = await t.newTenant({ name: 'Other Co' });

async function insert(table: string, values: Record<string, unknown>): Promise<number> {
  const row = await t.db.db
    .insertInto(table as never)
    .values(values as never)
    .returning('id' as never)
    .executeTakeFirstOrThrow();
  return (row as { id: number }).id;
}
const newClient = (tenant: TenantFixture = t.tenant) => insert('clients', { company_id: tenant.companyId, name: 'C' });
async function newProject(clientId: number | null, tenant: TenantFixture = t.tenant) {
  const type = await t.db.db
    .selectFrom('project_types')
    .select('id')
    .where('company_id', '=', tenant.companyId)
    .executeTakeFirstOrThrow();
  return insert('projects', { company_id: tenant.companyId, name: 'P', project_type_id: type.id, client_id: clientId });
}

async function stored(id: number) {
  return t.db.db
    .selectFrom('budgets')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function create(body: Record<string, unknown>, tenant = t.tenant) {
  const res = await t.request('POST', '/budgets', { body, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

test('POST creates with defaults (preview); a project fixes the client; amounts are stored exactly', async () => {
  const res = await t.request('POST', '/budgets', { body: { name: 'Company', budget_net_sum: 1000.5 } });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  assert.equal(res.headers.get('etag'), `"${res.body.data.updated_at}"`);
  const { id, created_at, updated_at, ...rest } = res.body.data;
  assert.ok(id && created_at && updated_at);
  assert.deepEqual(rest, {
    name: 'Company',
    client_id: null,
    project_id: null,
    date_from: null,
    date_until: null,
    budget_net_sum: 1000.5,
    warning_rate: 0.8,
    status: 'active',
    spent_net_sum: 0,
    warning: false,
  });
  const row = await stored(id);
  assert.equal(row.budget_net_sum, '1000.50');
  assert.equal(row.warning_rate, '0.8000');

  const client = await newClient();
  const projectId = await newProject(client);
  const byProject = await create({ name: 'P', budget_net_sum: 5, project_id: projectId, warning_rate: 0.1234 });
  assert.equal(byProject.client_id, client);
  assert.equal(byProject.warning_rate, 0.1234);
  const anyClient = await create({ name: 'P', budget_net_sum: 5, project_id: projectId, client_id: null });
  assert.equal(anyClient.client_id, null);
  const closed = await create({ name: 'Closed', budget_net_sum: 0, status: 'closed', date_from: '2026-01-01' });
  assert.equal(closed.status, 'closed');
  assert.equal(closed.warning, true, 'a zero budget is reached at once');
});

test('POST refuses bad amounts, dates and references with 400 naming the field', async () => {
  const theirClient = await newClient(other);
  const myClient = await newClient();
  const otherClientsProject = await newProject(await newClient());
  const cases: Array<[Record<string, unknown>, string, string]> = [
    [{ budget_net_sum: -1 }, 'VALIDATION_ERROR', 'budget_net_sum'],
    [{ budget_net_sum: 1.001 }, 'VALIDATION_ERROR', 'budget_net_sum'],
    [{ budget_net_sum: 1e308 }, 'VALIDATION_ERROR', 'budget_net_sum'],
    [{ budget_net_sum: 1, warning_rate: 80 }, 'VALIDATION_ERROR', 'warning_rate'],
    [{ budget_net_sum: 1, warning_rate: -0.1 }, 'VALIDATION_ERROR', 'warning_rate'],
    [{ budget_net_sum: 1, warning_rate: 0.12345 }, 'VALIDATION_ERROR', 'warning_rate'],
    [{ budget_net_sum: 1, date_from: '2026-02-01', date_until: '2026-01-31' }, 'VALIDATION_ERROR', 'date_until'],
    [{ budget_net_sum: 1, client_id: theirClient }, 'INVALID_CLIENT', 'client_id'],
    [{ budget_net_sum: 1, client_id: 2147483000 }, 'INVALID_CLIENT', 'client_id'],
    [{ budget_net_sum: 1, project_id: 2147483000 }, 'INVALID_PROJECT', 'project_id'],
    [{ budget_net_sum: 1, project_id: await newProject(null, other) }, 'INVALID_PROJECT', 'project_id'],
    [{ budget_net_sum: 1, project_id: otherClientsProject, client_id: myClient }, 'INVALID_PROJECT', 'project_id'],
  ];
  for (const [body, code, field] of cases) {
    const res = await t.request('POST', '/budgets', { body: { name: 'Bad', ...body } });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, code, JSON.stringify(body));
    assert.equal(res.body.error.details.field, field, JSON.stringify(body));
  }
  for (const body of [
    { name: 'X' },
    { budget_net_sum: 1 },
    { name: '', budget_net_sum: 1 },
    { name: 'a\u0000b', budget_net_sum: 1 },
    { name: 'X', budget_net_sum: '1' },
    { name: 'X', budget_net_sum: 1, status: 'open' },
    { name: 'X', budget_net_sum: 1, client_id: 9223372036854775807 },
    { name: 'X', budget_net_sum: 1, spent_net_sum: 5 },
  ]) {
    const res = await t.request('POST', '/budgets', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
  const count = await t.db.db
    .selectFrom('budgets')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', t.tenant.companyId)
    .where('name', 'in', ['Bad', 'X'])
    .executeTakeFirstOrThrow();
  assert.equal(Number(count.n), 0);
});

test('POST is idempotent with Idempotency-Key', async () => {
  const headers = { 'idempotency-key': 'budget-create-1' };
  const body = { name: 'Once', budget_net_sum: 10 };
  const first = await t.request('POST', '/budgets', { headers, body });
  const second = await t.request('POST', '/budgets', { headers, body });
  assert.equal(second.status, 201);
  assert.equal(second.headers.get('idempotency-replayed'), 'true');
  assert.deepEqual(second.body, first.body);
  const reused = await t.request('POST', '/budgets', { headers, body: { ...body, name: 'Twice' } });
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
});

test('every budget route needs the financials tier but a PATCH of other fields: read, write and personal keys get 403', async () => {
  const b = await create({ name: 'Gate', budget_net_sum: 10 });
  const calls: Array<[string, string, unknown]> = [
    ['GET', '/budgets', undefined],
    ['GET', `/budgets/${b.id}`, undefined],
    ['POST', '/budgets', { name: 'No', budget_net_sum: 1 }],
    ['PATCH', `/budgets/${b.id}`, { name: 'No' }],
    ['PATCH', `/budgets/${b.id}`, { budget_net_sum: 1 }],
    ['DELETE', `/budgets/${b.id}`, undefined],
  ];
  for (const key of ['read', 'write', 'personal', 'personalAdmin'])
    for (const [method, path, body] of calls) {
      if (key === 'write' && method === 'PATCH') continue;
      const res = await t.request(method, path, { key, body, headers: { 'if-match': '*' } });
      assert.equal(res.status, 403, `${method} ${path} ${key}`);
      assert.equal(res.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    }
  assert.equal((await stored(b.id)).name, 'Gate');
});

test('PATCH with a write key: name, scope and dates are written; the budget fields are 403 and the sums not read', async () => {
  const client = await newClient();
  const b = await create({ name: 'Team budget', budget_net_sum: 500 });
  const res = await t.request('PATCH', `/budgets/${b.id}`, {
    key: 'write',
    body: { name: 'Renamed', client_id: client, date_from: '2026-01-01' },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.name, 'Renamed');
  assert.equal(res.body.data.client_id, client);
  assert.equal(res.body.data.status, 'active');
  for (const field of ['budget_net_sum', 'warning_rate', 'spent_net_sum', 'warning'])
    assert.equal(res.body.data[field], null, field);
  const etag = { 'if-match': res.headers.get('etag')! };
  for (const body of [{ budget_net_sum: 1 }, { warning_rate: 0.5 }, { status: 'closed' }, { name: 'X', status: 1 }]) {
    const refused = await t.request('PATCH', `/budgets/${b.id}`, { key: 'write', body, headers: etag });
    assert.equal(refused.status, 403, JSON.stringify(body));
    assert.equal(refused.body.error.code, 'FINANCIAL_SCOPE_REQUIRED');
    assert.deepEqual(
      refused.body.error.details.fields,
      Object.keys(body).filter((k) => k !== 'name'),
    );
  }
  const row = await stored(b.id);
  assert.deepEqual([row.name, row.client_id, row.budget_net_sum, row.status], ['Renamed', client, '500.00', 'active']);
  const admin = await t.request('GET', `/budgets/${b.id}`);
  assert.equal(admin.body.data.budget_net_sum, 500);
});

test('PATCH: name and scope honour If-Match when sent; budget fields need it (428, 412)', async () => {
  const client = await newClient();
  const b = await create({ name: 'Edit', budget_net_sum: 100 });
  const renamed = await t.request('PATCH', `/budgets/${b.id}`, { body: { name: 'Edited', client_id: client } });
  assert.equal(renamed.status, 200, renamed.text);
  assert.equal(renamed.body.data.client_id, client);
  assert.notEqual(renamed.body.data.updated_at, b.updated_at);
  const staleName = await t.request('PATCH', `/budgets/${b.id}`, {
    body: { name: 'Stale' },
    headers: { 'if-match': `"${b.updated_at}"` },
  });
  assert.equal(staleName.status, 412);
  for (const body of [{ budget_net_sum: 200 }, { warning_rate: 0.5 }, { status: 'closed' }]) {
    const missing = await t.request('PATCH', `/budgets/${b.id}`, { body });
    assert.equal(missing.status, 428, JSON.stringify(body));
    assert.equal(missing.body.error.code, 'PRECONDITION_REQUIRED');
    const stale = await t.request('PATCH', `/budgets/${b.id}`, { body, headers: { 'if-match': `"${b.updated_at}"` } });
    assert.equal(stale.status, 412);
    assert.equal(stale.body.error.code, 'STALE_WRITE');
  }
  const fresh = await t.request('PATCH', `/budgets/${b.id}`, {
    body: { budget_net_sum: 250.25, warning_rate: 1, status: 'closed' },
    headers: { 'if-match': renamed.headers.get('etag')! },
  });
  assert.equal(fresh.status, 200, fresh.text);
  assert.equal(fresh.body.data.budget_net_sum, 250.25);
  assert.equal(fresh.body.data.status, 'closed');
  assert.equal((await stored(b.id)).budget_net_sum, '250.25');
  const inverted = await t.request('PATCH', `/budgets/${b.id}`, { body: { date_from: '2026-05-01' } });
  assert.equal(inverted.status, 200);
  const before = await t.request('PATCH', `/budgets/${b.id}`, { body: { date_until: '2026-04-30' } });
  assert.equal(before.status, 400);
  assert.equal(before.body.error.details.reason, 'INVALID_DATE_RANGE');
  const theirs = await t.request('PATCH', `/budgets/${b.id}`, { body: { client_id: await newClient(other) } });
  assert.equal(theirs.body.error.code, 'INVALID_CLIENT');
  const same = await t.request('PATCH', `/budgets/${b.id}`, { body: {} });
  assert.equal(same.status, 200);
  assert.equal(same.body.data.updated_at, inverted.body.data.updated_at);
});

test('PATCH of the project re-derives the client; null project keeps it; a clash is INVALID_PROJECT', async () => {
  const [c1, c2] = [await newClient(), await newClient()];
  const [p1, p2] = [await newProject(c1), await newProject(c2)];
  const b = await create({ name: 'Scope', budget_net_sum: 1, project_id: p1 });
  const moved = await t.request('PATCH', `/budgets/${b.id}`, { body: { project_id: p2 } });
  assert.equal(moved.body.data.client_id, c2);
  const clash = await t.request('PATCH', `/budgets/${b.id}`, { body: { client_id: c1 } });
  assert.equal(clash.status, 400);
  assert.equal(clash.body.error.code, 'INVALID_PROJECT');
  const dropped = await t.request('PATCH', `/budgets/${b.id}`, { body: { project_id: null } });
  assert.deepEqual([dropped.body.data.project_id, dropped.body.data.client_id], [null, c2]);
});

test('GET lists offset-only with client_id, project_id and status filters; another company sees none', async () => {
  const client = await newClient();
  const projectId = await newProject(client);
  const a = await create({ name: 'A', budget_net_sum: 1, client_id: client });
  const p = await create({ name: 'P', budget_net_sum: 1, project_id: projectId });
  const c = await create({ name: 'C', budget_net_sum: 1, client_id: client, status: 'closed' });
  const theirs = await create({ name: 'T', budget_net_sum: 1 }, other);
  const ids = async (query: string) => {
    const res = await t.request('GET', `/budgets?limit=200${query}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers.get('x-api-preview'), 'true');
    return res.body.data.map((x: { id: number }) => x.id);
  };
  assert.deepEqual(await ids(`&client_id=${client}`), [a.id, p.id, c.id]);
  assert.deepEqual(await ids(`&project_id=${projectId}`), [p.id]);
  assert.deepEqual(await ids(`&client_id=${client}&status=closed`), [c.id]);
  assert.ok(!(await ids('')).includes(theirs.id));
  const sorted = await t.request('GET', `/budgets?client_id=${client}&sort=-id`);
  assert.deepEqual(
    sorted.body.data.map((x: { id: number }) => x.id),
    [c.id, p.id, a.id],
  );
  assert.equal(sorted.body.meta.total, 3);
  for (const [query, status, code] of [
    ['cursor=abc', 400, 'INVALID_CURSOR'],
    ['status=open', 422, 'INVALID_FILTER_VALUE'],
    ['client_id=abc', 422, 'INVALID_FILTER_VALUE'],
    ['q=x', 400, 'UNKNOWN_FILTER_FIELD'],
  ] as const) {
    const res = await t.request('GET', `/budgets?${query}`);
    assert.equal(res.status, status, query);
    assert.equal(res.body.error.code, code);
  }
});

test("DELETE soft-deletes (If-Match honoured when sent); another company's ids are 404 on every route", async () => {
  const b = await create({ name: 'Bye', budget_net_sum: 1 });
  const stale = await t.request('DELETE', `/budgets/${b.id}`, { headers: { 'if-match': '"2000-01-01T00:00:00Z"' } });
  assert.equal(stale.status, 412);
  const gone = await t.request('DELETE', `/budgets/${b.id}`);
  assert.equal(gone.status, 204);
  assert.ok((await stored(b.id)).deleted_at);
  const theirs = await create({ name: 'Theirs', budget_net_sum: 1 }, other);
  for (const id of [b.id, theirs.id, 2147483000])
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'Mine' }],
      ['PATCH', { budget_net_sum: 'x' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request(method, `/budgets/${id}`, { body });
      assert.equal(res.status, 404, `${method} ${id}`);
      assert.equal(res.body.error.code, 'NOT_FOUND');
    }
  assert.ok(!(await t.request('GET', '/budgets?limit=200')).body.data.some((x: { id: number }) => x.id === b.id));
});
