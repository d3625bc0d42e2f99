import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { companyValue, scoped } from '../../platform/tenant-table.ts';
import { rowVisible } from '../../platform/visibility.ts';
import { projectColumns } from './projects.repository.ts';

/**
 * A live project of this company with its client (null when it has none), or undefined. Budgets check the project
 * they name with it; no visibility rule applies (the caller decides who may name a project).
 */
export async function liveProjectClient(ctx: Ctx, id: number): Promise<{ client_id: number | null } | undefined> {
  return scoped
    .select(ctx, 'projects', 'p')
    .where('p.id', '=', id)
    .where('p.deleted_at', 'is', null)
    .select('p.client_id')
    .executeTakeFirst();
}

/** A live project the actor may see (the projects' own rule, as GET /projects reads it), with its client. */
export function visibleProjectRef(ctx: Ctx, id: number) {
  return scoped
    .select(ctx, 'projects', 'p')
    .select(['p.id', 'p.client_id'])
    .where('p.id', '=', id)
    .where('p.deleted_at', 'is', null)
    .where(rowVisible(ctx, 'projects', 'p'))
    .executeTakeFirst();
}

/** A new project id drawn from the projects' own sequence (drawn first, so a statement can link it as it inserts). */
export const nextProjectIdSql = (): RawBuilder<number> =>
  sql<number>`nextval(pg_get_serial_sequence('projects', 'id'))::int`;

/**
 * Inserts one project per row of the CTE `source` (columns pid, a drawn id, and client_id), all with the name and
 * type given: a data-modifying CTE of the caller's statement (the project-workflow apply links each to its client).
 */
export function insertProjectsSql(
  ctx: Ctx,
  source: string,
  project: { name: string; project_type_id: number | null },
): RawBuilder<unknown> {
  return sql`insert into projects (company_id, id, name, project_type_id, client_id)
      select ${companyValue(ctx)}, pid, ${project.name}, ${project.project_type_id}, client_id from ${sql.table(source)}`;
}

/** The records of new projects `ids`, by id, as their created events carry them. */
export function projectEventRows(ctx: Ctx, ids: readonly number[]) {
  return projectColumns(scoped.select(ctx, 'projects', 'p'))
    .where('p.id', 'in', [...ids])
    .orderBy('p.id')
    .execute();
}
