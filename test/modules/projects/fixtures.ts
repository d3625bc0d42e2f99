import assert from 'node:assert/strict';
import type { TestApp, TenantFixture } from '../../helpers.ts';

/** Shared set-up for the project tests. Tasks are inserted directly: the tasks API is another module's. */
export function projectFixtures(t: TestApp) {
  async function createClient(name: string, tenant?: TenantFixture): Promise<number> {
    const res = await t.request('POST', '/clients', { body: { name }, tenant });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id;
  }

  async function projectTypeId(tenant: TenantFixture = t.tenant, name = 'General'): Promise<number> {
    const row = await t.db.db
      .selectFrom('project_types')
      .select('id')
      .where('company_id', '=', tenant.companyId)
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function createProject(body: Record<string, unknown>, tenant?: TenantFixture): Promise<number> {
    const res = await t.request('POST', '/projects', {
      body: { project_type_id: await projectTypeId(tenant), ...body },
      tenant,
    });
    assert.equal(res.status, 201, res.text);
    return res.body.data.id;
  }

  async function addMember(
    clientId: number,
    personId = t.tenant.memberPersonId,
    companyId = t.tenant.companyId,
  ): Promise<void> {
    await t.db.db
      .insertInto('client_members')
      .values({ company_id: companyId, client_id: clientId, person_id: personId, role: null, workflow_role_id: null })
      .execute();
  }

  async function insertTask(
    values: {
      title: string;
      client_id?: number | null;
      project_id?: number | null;
      deleted?: boolean;
      assignee?: number;
    },
    companyId = t.tenant.companyId,
  ): Promise<number> {
    const row = await t.db.db
      .insertInto('tasks')
      .values({
        company_id: companyId,
        title: values.title,
        client_id: values.client_id ?? null,
        project_id: values.project_id ?? null,
        ...(values.deleted ? { deleted_at: new Date().toISOString() } : {}),
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    if (values.assignee)
      await t.db.db
        .insertInto('task_assignees')
        .values({ company_id: companyId, task_id: row.id, person_id: values.assignee })
        .execute();
    return row.id;
  }

  const storedProject = (id: number, companyId = t.tenant.companyId) =>
    t.db.db
      .selectFrom('projects')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst();

  const taskClients = async (ids: number[]) => {
    const rows = await t.db.db
      .selectFrom('tasks')
      .select(['id', 'client_id', 'updated_at'])
      .where('company_id', '=', t.tenant.companyId)
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    return rows;
  };

  const lastEventId = async (): Promise<string> => {
    const row = await t.db.db
      .selectFrom('events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return String(row?.id ?? 0);
  };

  const eventsSince = (id: string) =>
    t.db.db
      .selectFrom('events')
      .select(['event', 'record_id', 'data'])
      .where('company_id', '=', t.tenant.companyId)
      .where('id', '>', Number(id))
      .orderBy('id')
      .execute();

  return {
    createClient,
    projectTypeId,
    createProject,
    addMember,
    insertTask,
    storedProject,
    taskClients,
    lastEventId,
    eventsSince,
  };
}
