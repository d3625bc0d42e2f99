import { customFieldConditions } from '../custom-fields/index.ts';
import { projectTypeNameSql } from '../project-types/index.ts';
import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { likeContains, nextStamp, firstRecord } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { rowVisible } from '../../platform/visibility.ts';
import {
  PROJECT_LIST_OPTIONS,
  type ProjectListParams,
  type ProjectRecord,
  type ProjectStatus,
} from './projects.schemas.ts';

export const projects = tenantTable('projects', { alias: 'p', softDelete: true });
type Query = BaseQuery<'projects', 'p'>;

/** A project record's columns (its events carry the same). */
export const projectColumns = (query: Query) =>
  query.select([
    'p.id',
    'p.name',
    'p.project_type_id',
    'p.client_id',
    'p.manager_id',
    'p.status',
    'p.status_text',
    'p.event_date',
    'p.custom_fields',
    'p.created_at',
    'p.updated_at',
  ]);

function applyFilters(query: Query, filters: ListFilters<ProjectListParams>) {
  let q = query;
  // The query schema allows only the listed values (EnumList).
  const statuses = splitList(filters.status) as ProjectStatus[] | undefined;
  if (statuses) q = q.where('p.status', 'in', statuses);
  if (filters.client_id !== undefined) q = q.where('p.client_id', '=', filters.client_id);
  if (filters.manager_id !== undefined) q = q.where('p.manager_id', '=', filters.manager_id);
  if (filters.project_type_id !== undefined) q = q.where('p.project_type_id', '=', filters.project_type_id);
  if (filters.q !== undefined) q = q.where('p.name', 'ilike', likeContains(filters.q));
  for (const condition of customFieldConditions(filters, 'p')) q = q.where(condition);
  return q;
}

export function listProjects(ctx: Ctx, params: ProjectListParams) {
  return listPage<ProjectRecord, ProjectListParams>(ctx, {
    listId: 'projects',
    params,
    options: PROJECT_LIST_OPTIONS,
    idColumn: 'p.id',
    project: projectColumns,
    base: (filters) => applyFilters(projects.base(ctx), filters),
  });
}

export async function findProject(ctx: Ctx, id: number): Promise<ProjectRecord | undefined> {
  return firstRecord<ProjectRecord>(projectColumns(projects.base(ctx).where('p.id', '=', id)));
}

/** Locks the row with what the state machine and a client move read; undefined when absent, deleted or invisible. */
export async function lockProject(ctx: Ctx, id: number) {
  return projects
    .base(ctx)
    .where('p.id', '=', id)
    .select(['p.id', 'p.client_id', 'p.status', 'p.archived_from'])
    .forUpdate()
    .executeTakeFirst();
}
export type LockedProject = NonNullable<Awaited<ReturnType<typeof lockProject>>>;

/** Live tasks of the project the acting person cannot see: a move would strand them. */
export async function countHiddenTasks(ctx: Ctx, projectId: number): Promise<number> {
  const row = await scoped
    .select(ctx, 'tasks', 't')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('t.project_id', '=', projectId)
    .where('t.deleted_at', 'is', null)
    .where(sql<boolean>`not ${rowVisible(ctx, 'tasks', 't')}`)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Moves the project's live tasks to the client; answers the moved rows (as stored) for their events. */
export async function moveTasks(ctx: Ctx, projectId: number, clientId: number) {
  const rows = await scoped
    .update(ctx, 'tasks')
    .set({ client_id: clientId, updated_at: nextStamp() })
    .where('project_id', '=', projectId)
    .where('deleted_at', 'is', null)
    .returningAll()
    .execute();
  return rows.map(({ company_id: _company, deleted_at: _deleted, ...task }) => task).sort((a, b) => a.id - b.id);
}

/**
 * The name of a project created without one: its type's name and a running number ("Event 3"). Every
 * project of the type counts, deleted ones included, so a number is not handed out again after a delete;
 * two creates at the same instant may share one (names need not be unique).
 */
export async function defaultName(ctx: Ctx, projectTypeId: number): Promise<string> {
  // One statement: the count of this module's rows, and the type's name from project-types (checked before).
  const row = await scoped
    .select(ctx, 'projects', 'p')
    .where('p.project_type_id', '=', projectTypeId)
    .select([projectTypeNameSql(ctx, projectTypeId).as('name'), sql<number>`count(*)::int + 1`.as('n')])
    .executeTakeFirstOrThrow();
  const suffix = ` ${row.n}`;
  return row.name.slice(0, 255 - suffix.length) + suffix;
}
