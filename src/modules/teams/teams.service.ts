import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { assertReference, liveIds } from '../../platform/references.ts';
import type { TeamCreateBody, TeamRecord, TeamUpdateBody } from './teams.schemas.ts';
import * as repo from './teams.repository.ts';
import type { TeamColumns } from './teams.repository.ts';

export const listTeams = (ctx: Ctx, params: object) => repo.listTeams(ctx, params);

export async function getTeam(ctx: Ctx, id: number): Promise<TeamRecord> {
  const team = await repo.findTeam(ctx, id);
  if (!team) throw notFound('Team');
  return team;
}

/** Every person the body names must be a person of this company: 400 INVALID_PERSON naming the field. */
async function checkPeople(ctx: Ctx, body: TeamCreateBody | TeamUpdateBody): Promise<void> {
  await assertReference(ctx, 'people', 'person', 'lead_id', body.lead_id);
  if (!body.member_ids?.length) return;
  const found = await liveIds(ctx, 'people', body.member_ids);
  const missing = body.member_ids.filter((id) => !found.has(id));
  if (missing.length) {
    throw new AppError(400, 'INVALID_PERSON', `member_ids contains ids that are not persons of this company: ${missing.join(', ')}`, { field: 'member_ids', invalid_ids: missing });
  }
}

function columnsFrom(body: TeamCreateBody | TeamUpdateBody): Partial<TeamColumns> {
  const { member_ids: _members, ...columns } = body;
  return columns;
}

export async function createTeam(ctx: Ctx, body: TeamCreateBody): Promise<TeamRecord> {
  return inTransaction(ctx, async (tx) => {
    await checkPeople(tx, body);
    const id = await repo.insertTeam(tx, { description: null, lead_id: null, ...columnsFrom(body), name: body.name });
    if (body.member_ids) await repo.replaceMembers(tx, id, body.member_ids);
    return getTeam(tx, id);
  });
}

export async function updateTeam(ctx: Ctx, id: number, body: TeamUpdateBody): Promise<TeamRecord> {
  return inTransaction(ctx, async (tx) => {
    if (!(await repo.lockTeam(tx, id))) throw notFound('Team');
    if (Object.keys(body).length === 0) return getTeam(tx, id);
    await checkPeople(tx, body);
    await repo.updateTeam(tx, id, columnsFrom(body));
    if (body.member_ids) await repo.replaceMembers(tx, id, body.member_ids);
    return getTeam(tx, id);
  });
}

export async function deleteTeam(ctx: Ctx, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    if (!(await repo.lockTeam(tx, id))) throw notFound('Team');
    await repo.softDeleteTeam(tx, id);
  });
}
