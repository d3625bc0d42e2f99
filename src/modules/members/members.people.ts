import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { ensureAccount } from '../sessions/index.ts';

// tenant: deliberate SQL throughout: these run without a request context (company creation, the demo owner,
// accepting an invitation), so the company is named by the caller.

/** The initials a member shows: first letters of name and surname, upper case. */
export function initialsOf(name: string, surname?: string | null): string {
  return `${name.charAt(0)}${surname?.charAt(0) ?? ''}`.toUpperCase();
}

export interface FirstMember {
  name: string;
  surname?: string | null;
  email?: string | null;
  role: string;
  status: string;
}

/** A person and its member row, for company creation and the operator's member add (no tenant context). */
export async function addPersonMember(db: Executor, companyId: string, body: FirstMember) {
  const person = await db
    .insertInto('people')
    .values({
      company_id: companyId,
      name: body.name,
      surname: body.surname ?? null,
      email: body.email ?? null,
      phone: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const member = await db
    .insertInto('members')
    .values({
      company_id: companyId,
      person_id: person.id,
      role: body.role,
      status: body.status,
      initials: initialsOf(body.name, body.surname),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { person_id: person.id, member_id: member.id };
}

/**
 * The account of an e-mail address (made when the address has none), linked to the company's member of the
 * person. For the demo owner, and for whoever turns an invitation into a member (a password comes later).
 */
export async function linkAccount(
  db: Executor,
  link: { email: string; companyId: string; personId: number },
): Promise<number> {
  const accountId = await ensureAccount(db, link.email);
  await db
    .updateTable('members')
    .set({ account_id: accountId })
    .where('company_id', '=', link.companyId)
    .where('person_id', '=', link.personId)
    .execute();
  return accountId;
}

/** An accepted invitation: the member turns active with the invited role, the person takes the address. */
export async function activateInvited(
  tx: Executor,
  invited: { companyId: string; memberId: number; personId: number; role: string; email: string },
  names: { name?: string; surname?: string | null },
): Promise<void> {
  await tx
    .updateTable('members')
    .set({ status: 'active', role: invited.role, updated_at: sql`date_trunc('milliseconds', clock_timestamp())` })
    .where('company_id', '=', invited.companyId)
    .where('id', '=', invited.memberId)
    .execute();
  await tx
    .updateTable('people')
    .set({ ...names, email: invited.email })
    .where('company_id', '=', invited.companyId)
    .where('id', '=', invited.personId)
    .execute();
}
