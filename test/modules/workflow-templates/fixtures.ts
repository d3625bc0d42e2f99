import assert from 'node:assert/strict';
import type { TenantFixture, TestApp } from '../../helpers.ts';

/** Test data for the workflow tests: through the API where it can make it, rows in SQL for volume. */

export async function createTemplate(
  t: TestApp,
  path: '/workflow-templates' | '/project-workflows',
  body: Record<string, unknown> = {},
  tenant?: TenantFixture,
) {
  const extra = path === '/project-workflows' ? { project_type_id: await projectType(t, tenant) } : {};
  const res = await t.request('POST', path, { body: { name: 'Onboarding', ...extra, ...body }, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

export async function addMaster(t: TestApp, path: string, body: Record<string, unknown> = {}) {
  const res = await t.request('POST', `${path}/tasks`, { body: { title: 'Collect documents', ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

export async function projectType(t: TestApp, tenant?: TenantFixture): Promise<number> {
  const row = await t.db.db
    .selectFrom('project_types')
    .select('id')
    .where('company_id', '=', (tenant ?? t.tenant).companyId)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Clients written in one statement (the API would take a request each). */
export async function insertClients(t: TestApp, count: number, values: Record<string, unknown> = {}) {
  const rows = Array.from({ length: count }, (_, i) => ({
    company_id: t.tenant.companyId,
    name: `Client ${i}`,
    ...values,
  }));
  return (
    await t.db.db
      .insertInto('clients')
      .values(rows as never)
      .returning('id')
      .execute()
  ).map((r) => r.id);
}

export async function waitForJob(t: TestApp, jobId: number, key = 'admin') {
  for (let attempt = 0; attempt < 400; attempt++) {
    const res = await t.request('GET', `/jobs/${jobId}`, { key });
    assert.equal(res.status, 200, res.text);
    if (res.body.data.status === 'finished' || res.body.data.status === 'failed') return res.body.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} did not finish`);
}

/** Starts a job and waits for its end. */
export async function runJob(t: TestApp, url: string, body: unknown, key = 'admin') {
  const res = await t.request('POST', url, { body, key });
  assert.equal(res.status, 202, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  return waitForJob(t, res.body.data.id, key);
}

/** Live tasks of these clients as stored (templates and deleted rows excluded). */
export async function liveTasks(t: TestApp, clientIds: number[]) {
  if (clientIds.length === 0) return [];
  return t.db.db
    .selectFrom('tasks')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('client_id', 'in', clientIds)
    .where('deleted_at', 'is', null)
    .where('template_kind', 'is', null)
    .orderBy('id')
    .execute();
}

export async function events(t: TestApp, event?: string) {
  let query = t.db.db.selectFrom('events').selectAll().where('company_id', '=', t.tenant.companyId);
  if (event) query = query.where('event', '=', event);
  return query.orderBy('id').execute();
}
