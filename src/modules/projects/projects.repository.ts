import { sql } from 'kysely';
import { softDelete } from '../../platform/soft-delete.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { likeContains, nextStamp } from '../../platform/sql.ts';
import { clientIdVisible, projectVisible, taskVisible } from '../../platform/visibility.ts';
import { PROJECT_LIST_OPTIONS, type ProjectRecord, type ProjectStatus } from './projects.schemas.ts';

export interface ProjectColumns {
  name: string;
  project_type_id: number;
  client_id: number | null;
  manager_id: number | null;
  status: ProjectStatus;
  status_text: string | null;
  event_date: string | null;
  custom_fields: string | null;
  archived_from: ProjectStatus | null;
}

const COLUMNS = ['p.id', 'p.name', 'p.project_type_id', 'p.client_id', 'p.manager_id', 'p.status', 'p.status_text', 'p.event_date', 'p.custom_fields', 'p.created_at', 'p.updated_at'] as const;

function base(ctx: Ctx) {
  return ctx.db.selectFrom('projects as p').where('p.company_id', '=', ctx.companyId).where('p.deleted_at', 'is', null).where(projectVisible(ctx, 'p'));
}

function applyFilters(query: ReturnType<typeof base>, filters: Record<string, unknown>) {
  let q = query;
  const statuses = splitList(filters.status as string | undefined);
  if (statuses) q = q.where('p.status', 'in', statuses);
  if (filters.client_id !== undefined) q = q.where('p.client_id', '=', filters.client_id as number);
  if (filters.manager_id !== undefined) q = q.where('p.manager_id', '=', filters.manager_id as number);
  if (filters.project_type_id !== undefined) q = q.where('p.project_type_id', '=', filters.project_type_id as number);
  if (filters.q !== undefined) q = q.where('p.name', 'ilike', likeContains(filters.q as string));
  return q;
}

export async function listProjects(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'projects', params, PROJECT_LIST_OPTIONS);
  return paginate<ProjectRecord>(ctx, {
    listId: 'projects', base: applyFilters(base(ctx), filters), idColumn: 'p.id', project: ((q: ReturnType<typeof base>) => q.select(COLUMNS)) as never,
    options: PROJECT_LIST_OPTIONS, params, filters, sort, after,
  });
}

export async function findProject(ctx: Ctx, id: number): Promise<ProjectRecord | undefined> {
  return base(ctx).where('p.id', '=', id).select(COLUMNS).executeTakeFirst() as Promise<ProjectRecord | undefined>;
}

/** Locks the row for the rest of the transaction; undefined when absent, deleted or invisible. */
export async function lockProject(ctx: Ctx, id: number) {
  return base(ctx).where('p.id', '=', id).select(['p.id', 'p.client_id', 'p.status', 'p.archived_from']).forUpdate().executeTakeFirst();
}

export async function insertProject(ctx: Ctx, values: Partial<ProjectColumns> & { name: string; project_type_id: number }): Promise<number> {
  const row = await ctx.db.insertInto('projects').values({ ...values, company_id: ctx.companyId } as never).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateProject(ctx: Ctx, id: number, values: Partial<ProjectColumns>): Promise<void> {
  await ctx.db.updateTable('projects').set({ ...values, updated_at: nextStamp() } as never).where('company_id', '=', ctx.companyId).where('id', '=', id).execute();
}

export async function softDeleteProject(ctx: Ctx, id: number): Promise<void> {
  await softDelete(ctx, 'projects', id);
}

/** Whether the acting person may manage a client: owners, admins and integration keys always; members when they see it. */
export async function clientManageable(ctx: Ctx, clientId: number): Promise<boolean> {
  const row = await ctx.db.selectFrom('clients as c').select('c.id').where('c.company_id', '=', ctx.companyId).where('c.id', '=', clientId)
    .where(clientIdVisible(ctx, 'c.company_id', 'c.id')).executeTakeFirst();
  return row !== undefined;
}

/** Live tasks of the project the acting person cannot see: a move would strand them. */
export async function countHiddenTasks(ctx: Ctx, projectId: number): Promise<number> {
  const row = await ctx.db.selectFrom('tasks as t').select(sql<number>`count(*)::int`.as('n'))
    .where('t.company_id', '=', ctx.companyId).where('t.project_id', '=', projectId).where('t.deleted_at', 'is', null)
    .where(sql<boolean>`not ${taskVisible(ctx, 't')}`).executeTakeFirstOrThrow();
  return row.n;
}

/** Moves the project's live tasks to the client; answers the moved rows (as stored) for their events. */
export async function moveTasks(ctx: Ctx, projectId: number, clientId: number) {
  const rows = await ctx.db.updateTable('tasks').set({ client_id: clientId, updated_at: nextStamp() })
    .where('company_id', '=', ctx.companyId).where('project_id', '=', projectId).where('deleted_at', 'is', null)
    .returningAll().execute();
  return rows.map(({ company_id: _company, deleted_at: _deleted, ...task }) => task).sort((a, b) => a.id - b.id);
}
