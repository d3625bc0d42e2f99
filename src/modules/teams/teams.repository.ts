import type { TeamListParams } from './teams.schemas.ts';
import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { likeContains, firstRecord } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { TEAM_LIST_OPTIONS, type TeamRecord } from './teams.schemas.ts';

export const teams = tenantTable('teams', { alias: 't', softDelete: true });
type Query = BaseQuery<'teams', 't'>;

function project(query: Query) {
  return query.select([
    't.id',
    't.name',
    't.description',
    't.lead_id',
    sql<number[]>`coalesce((select array_agg(tm.person_id order by tm.person_id) from team_members tm
      where tm.company_id = t.company_id and tm.team_id = t.id), '{}')`.as('member_ids'),
    't.created_at',
    't.updated_at',
  ]);
}

function applyFilters(query: Query, filters: ListFilters<TeamListParams>) {
  return filters.q === undefined ? query : query.where('t.name', 'ilike', likeContains(filters.q));
}

export function listTeams(ctx: Ctx, params: TeamListParams) {
  return listPage<TeamRecord, TeamListParams>(ctx, {
    listId: 'teams',
    params,
    options: TEAM_LIST_OPTIONS,
    idColumn: 't.id',
    project,
    base: (filters) => applyFilters(teams.base(ctx), filters),
  });
}

export async function findTeam(ctx: Ctx, id: number): Promise<TeamRecord | undefined> {
  return firstRecord<TeamRecord>(project(teams.base(ctx).where('t.id', '=', id)));
}

/** Whole-list replacement of the team's members. */
export async function replaceMembers(ctx: Ctx, teamId: number, personIds: readonly number[]): Promise<void> {
  await scoped.delete(ctx, 'team_members').where('team_id', '=', teamId).execute();
  if (personIds.length === 0) return;
  await scoped
    .insert(
      ctx,
      'team_members',
      personIds.map((personId) => ({ team_id: teamId, person_id: personId })),
    )
    .execute();
}
