import type { TeamListParams } from './teams.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { assertReference, liveIds } from '../../platform/references.ts';
import type { RowChanges } from '../../platform/tenant-table.ts';
import type { TeamCreateBody, TeamRecord, TeamUpdateBody } from './teams.schemas.ts';
import * as repo from './teams.repository.ts';

const target = { what: 'Team', lock: repo.teams.lock, read: repo.findTeam };

export const listTeams = (ctx: Ctx, params: TeamListParams) => repo.listTeams(ctx, params);

export async function getTeam(ctx: Ctx, id: number): Promise<TeamRecord> {
  return orNotFound(await repo.findTeam(ctx, id), 'Team');
}

/** Every person the body names must be a person of this company: 400 INVALID_PERSON naming the field. */
async function checkPeople(ctx: Ctx, body: TeamCreateBody | TeamUpdateBody): Promise<void> {
  await assertReference(ctx, 'people', 'person', 'lead_id', body.lead_id);
  if (!body.member_ids?.length) return;
  const found = await liveIds(ctx, 'people', body.member_ids);
  const missing = body.member_ids.filter((id) => !found.has(id));
  if (missing.length) {
    throw new AppError(
      'INVALID_PERSON',
      `member_ids contains ids that are not persons of this company: ${missing.join(', ')}`,
      { field: 'member_ids', invalid_ids: missing },
    );
  }
}

function columnsFrom(body: TeamCreateBody | TeamUpdateBody): RowChanges<'teams'> {
  const { member_ids: _members, ...columns } = body;
  return columns;
}

export async function createTeam(ctx: Ctx, body: TeamCreateBody): Promise<TeamRecord> {
  return inTransaction(ctx, async (tx) => {
    await checkPeople(tx, body);
    const id = await repo.teams.insert(tx, { description: null, lead_id: null, ...columnsFrom(body), name: body.name });
    if (body.member_ids) await repo.replaceMembers(tx, id, body.member_ids);
    return getTeam(tx, id);
  });
}

export const updateTeam = (ctx: Ctx, id: number, body: TeamUpdateBody) =>
  mutate(ctx, target, id, body, async (tx) => {
    await checkPeople(tx, body);
    await repo.teams.update(tx, id, columnsFrom(body));
    if (body.member_ids) await repo.replaceMembers(tx, id, body.member_ids);
  });

export const deleteTeam = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, (tx) => repo.teams.softDelete(tx, id));
