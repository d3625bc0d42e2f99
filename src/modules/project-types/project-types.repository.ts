import type { Executor } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { likeContains } from '../../platform/sql.ts';
import { PROJECT_TYPE_LIST_OPTIONS, type ProjectTypeRecord } from './project-types.schemas.ts';

const COLUMNS = ['pt.id', 'pt.name', 'pt.status', 'pt.created_at', 'pt.updated_at'] as const;

function base(ctx: Ctx) {
  return ctx.db.selectFrom('project_types as pt').where('pt.company_id', '=', ctx.companyId).where('pt.deleted_at', 'is', null);
}

function applyFilters(query: ReturnType<typeof base>, filters: Record<string, unknown>) {
  let q = query;
  const statuses = splitList(filters.status as string | undefined);
  if (statuses) q = q.where('pt.status', 'in', statuses);
  if (filters.q !== undefined) q = q.where('pt.name', 'ilike', likeContains(filters.q as string));
  return q;
}

export async function listProjectTypes(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'project-types', params, PROJECT_TYPE_LIST_OPTIONS);
  return paginate<ProjectTypeRecord>(ctx, {
    listId: 'project-types', base: applyFilters(base(ctx), filters), idColumn: 'pt.id', project: ((q: ReturnType<typeof base>) => q.select(COLUMNS)) as never,
    options: PROJECT_TYPE_LIST_OPTIONS, params, filters, sort, after,
  });
}

export async function findProjectType(ctx: Ctx, id: number): Promise<ProjectTypeRecord | undefined> {
  return base(ctx).where('pt.id', '=', id).select(COLUMNS).executeTakeFirst() as Promise<ProjectTypeRecord | undefined>;
}

/** Live (not deleted) project type of the company; projects may only be created with one. */
export async function projectTypeExists(ctx: Ctx, id: number): Promise<boolean> {
  return (await base(ctx).where('pt.id', '=', id).select('pt.id').executeTakeFirst()) !== undefined;
}

export async function insertDefaults(db: Executor, companyId: string, names: readonly string[]): Promise<void> {
  await db.insertInto('project_types').values(names.map((name) => ({ company_id: companyId, name, status: 'active' }))).execute();
}
