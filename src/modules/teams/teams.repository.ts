import { sql } from 'kysely';
import { softDelete } from '../../platform/soft-delete.ts';
import type { Ctx } from '../../platform/context.ts';
import { paginate, resolveList } from '../../platform/lists.ts';
import { likeContains, nextStamp } from '../../platform/sql.ts';
import { TEAM_LIST_OPTIONS, type TeamRecord } from './teams.schemas.ts';

export type TeamColumns = Pick<TeamRecord, 'name' | 'description' | 'lead_id'>;

function base(ctx: Ctx) {
  return ctx.db
    .selectFrom('teams as t')
    .where('t.company_id', '=', ctx.companyId)
    .where('t.deleted_at', 'is', null);
}

function project(query: ReturnType<typeof base>) {
  return query.select([
    't.id', 't.name', 't.description', 't.lead_id',
    sql<number[]>`coalesce((select array_agg(tm.person_id order by tm.person_id) from team_members tm
      where tm.company_id = t.company_id and tm.team_id = t.id), '{}')`.as('member_ids'),
    't.created_at', 't.updated_at',
  ]);
}

function applyFilters(query: ReturnType<typeof base>, filters: Record<string, unknown>) {
  return filters.q === undefined ? query : query.where('t.name', 'ilike', likeContains(filters.q as string));
}

export async function listTeams(ctx: Ctx, params: object) {
  const { filters, sort, after } = resolveList(ctx, 'teams', params, TEAM_LIST_OPTIONS);
  return paginate<TeamRecord>(ctx, {
    listId: 'teams', base: applyFilters(base(ctx), filters), idColumn: 't.id', project: project as never,
    options: TEAM_LIST_OPTIONS, params, filters, sort, after,
  });
}

export async function findTeam(ctx: Ctx, id: number): Promise<TeamRecord | undefined> {
  return project(base(ctx).where('t.id', '=', id)).executeTakeFirst() as Promise<TeamRecord | undefined>;
}

/** Locks the row for the rest of the transaction; undefined when absent, deleted or another tenant's. */
export async function lockTeam(ctx: Ctx, id: number) {
  return base(ctx).where('t.id', '=', id).select(['t.id', 't.updated_at']).forUpdate().executeTakeFirst();
}

export async function insertTeam(ctx: Ctx, values: TeamColumns): Promise<number> {
  const row = await ctx.db.insertInto('teams').values({ ...values, company_id: ctx.companyId }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTeam(ctx: Ctx, id: number, values: Partial<TeamColumns>): Promise<void> {
  await ctx.db.updateTable('teams').set({ ...values, updated_at: nextStamp() }).where('company_id', '=', ctx.companyId).where('id', '=', id).execute();
}

/** Whole-list replacement of the team's members. */
export async function replaceMembers(ctx: Ctx, teamId: number, personIds: readonly number[]): Promise<void> {
  await ctx.db.deleteFrom('team_members').where('company_id', '=', ctx.companyId).where('team_id', '=', teamId).execute();
  if (personIds.length === 0) return;
  await ctx.db.insertInto('team_members')
    .values(personIds.map((personId) => ({ company_id: ctx.companyId, team_id: teamId, person_id: personId })))
    .execute();
}

export async function softDeleteTeam(ctx: Ctx, id: number): Promise<void> {
  await softDelete(ctx, 'teams', id);
}
