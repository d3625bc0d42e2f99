import type { ProjectTypeListParams } from './project-types.schemas.ts';
import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { likeContains, firstRecord } from '../../platform/sql.ts';
import { tenant, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { PROJECT_TYPE_LIST_OPTIONS, type ProjectTypeRecord, type ProjectTypeStatus } from './project-types.schemas.ts';

export const projectTypes = tenantTable('project_types', { alias: 'pt', softDelete: true });
type Query = BaseQuery<'project_types', 'pt'>;

const project = (query: Query) => query.select(['pt.id', 'pt.name', 'pt.status', 'pt.created_at', 'pt.updated_at']);

function applyFilters(query: Query, filters: ListFilters<ProjectTypeListParams>) {
  let q = query;
  // The query schema allows only the listed values (EnumList).
  const statuses = splitList(filters.status) as ProjectTypeStatus[] | undefined;
  if (statuses) q = q.where('pt.status', 'in', statuses);
  if (filters.q !== undefined) q = q.where('pt.name', 'ilike', likeContains(filters.q));
  return q;
}

export function listProjectTypes(ctx: Ctx, params: ProjectTypeListParams) {
  return listPage<ProjectTypeRecord, ProjectTypeListParams>(ctx, {
    listId: 'project-types',
    params,
    options: PROJECT_TYPE_LIST_OPTIONS,
    idColumn: 'pt.id',
    project,
    base: (filters) => applyFilters(projectTypes.base(ctx), filters),
  });
}

export async function findProjectType(ctx: Ctx, id: number): Promise<ProjectTypeRecord | undefined> {
  return firstRecord<ProjectTypeRecord>(project(projectTypes.base(ctx).where('pt.id', '=', id)));
}

/** The company seeder's insert, run inside createCompany's transaction: there is no caller's context yet. */
export async function insertDefaults(db: Executor, companyId: string, names: readonly string[]): Promise<void> {
  // tenant: the company being created, not a caller's
  await db
    .insertInto('project_types')
    .values(names.map((name) => ({ company_id: companyId, name, status: 'active' })))
    .execute();
}

/** The type's name (deleted types too), as a scalar subquery for another module's statement (a project's default name). */
export const projectTypeNameSql = (ctx: Ctx, id: number): RawBuilder<string> =>
  sql<string>`(select pt.name from project_types pt where ${tenant(ctx, 'pt')} and pt.id = ${id})`;
