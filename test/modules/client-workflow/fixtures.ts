import assert from 'node:assert/strict';
import type { TenantFixture, TestApp } from '../../helpers.ts';

export async function createClient(t: TestApp, body: Record<string, unknown> = {}, tenant?: TenantFixture) {
  const res = await t.request('POST', '/clients', { body: { name: 'Workflow client', ...body }, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data as { id: number; updated_at: string; default_person_id: number | null };
}

export async function createRole(t: TestApp, name: string, tenant?: TenantFixture): Promise<number> {
  const res = await t.request('POST', '/workflow-roles', { body: { name }, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

/** A company member (person + member row) with the given status, straight in SQL. */
export async function insertMember(t: TestApp, status = 'active', tenant: TenantFixture = t.tenant): Promise<number> {
  const person = await t.db.db
    .insertInto('people')
    .values({ company_id: tenant.companyId, name: `Member ${status}`, surname: null, email: null, phone: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db.db
    .insertInto('members')
    .values({ company_id: tenant.companyId, person_id: person.id, role: 'member', status } as never)
    .execute();
  return person.id;
}

/** Live memberships of a client: [person_id, workflow_role_id] pairs by person. */
export async function storedMembers(t: TestApp, clientId: number, tenant: TenantFixture = t.tenant) {
  const rows = await t.db.db
    .selectFrom('client_members')
    .select(['person_id', 'workflow_role_id'])
    .where('company_id', '=', tenant.companyId)
    .where('client_id', '=', clientId)
    .where('deleted_at', 'is', null)
    .orderBy('person_id')
    .execute();
  return rows.map((r) => [r.person_id, r.workflow_role_id]);
}

export const eventCount = async (t: TestApp, event?: string) => {
  let query = t.db.db.selectFrom('events').select('id').where('company_id', '=', t.tenant.companyId);
  if (event) query = query.where('event', '=', event);
  return (await query.execute()).length;
};

export async function waitForJob(t: TestApp, jobId: number, key = 'admin') {
  for (let attempt = 0; attempt < 200; attempt++) {
    const res = await t.request('GET', `/jobs/${jobId}`, { key });
    assert.equal(res.status, 200, res.text);
    if (res.body.data.status === 'finished' || res.body.data.status === 'failed') return res.body.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${jobId} did not finish`);
}
