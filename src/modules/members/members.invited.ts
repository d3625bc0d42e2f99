import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { nextStamp } from '../../platform/sql.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { members, people } from './members.repository.ts';
import { initialsOf } from './members.people.ts';

// The member side of an invitation: whom it is for, the pending member it makes, and its end on a cancel.

/** The member a new invitation is for, locked: by person (a placeholder) or by e-mail (any status). */
export function lockMemberBy(ctx: Ctx, by: { personId: number } | { email: string }) {
  const query = members
    .base(ctx)
    .innerJoin('people as p', (join) =>
      join.onRef('p.company_id', '=', 'm.company_id').onRef('p.id', '=', 'm.person_id'),
    )
    .select(['m.id', 'm.person_id', 'm.status', 'm.role', 'm.account_id', 'p.email']);
  const filtered =
    'personId' in by
      ? query.where('m.person_id', '=', by.personId)
      : query.where(sql<string>`lower(p.email)`, '=', by.email.toLowerCase()).orderBy('m.id');
  return filtered.forUpdate(['m']).executeTakeFirst();
}

/** A person invited by an address no member has: a pending member until the link is used. */
export async function addPendingMember(
  ctx: Ctx,
  body: { name: string; surname: string | null; email: string },
): Promise<number> {
  const personId = await people.insert(ctx, { name: body.name, surname: body.surname, email: body.email, phone: null });
  return members.insert(ctx, {
    person_id: personId,
    role: 'member',
    status: 'pending',
    initials: initialsOf(body.name, body.surname),
  });
}

/** An invitation renames the person it is for (and so the member's initials). */
export async function renameInvited(
  ctx: Ctx,
  member: { id: number; person_id: number },
  body: { name: string; surname?: string | null; email: string },
): Promise<void> {
  const { name, surname, email } = body;
  await people.update(ctx, member.person_id, { name, email, ...(surname !== undefined && { surname }) });
  await members.update(ctx, member.id, { initials: initialsOf(name, surname ?? null) });
}

/** A member that exists only because of a cancelled invitation may no longer become active; a placeholder stays. */
export async function cancelPendingMember(ctx: Ctx, memberId: number): Promise<void> {
  await scoped
    .update(ctx, 'members')
    .set({ status: 'inactive', updated_at: nextStamp() })
    .where('id', '=', memberId)
    .where('status', '=', 'pending')
    .execute();
}
