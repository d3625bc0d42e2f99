import type { Ctx } from '../../platform/context.ts';
import { lockLive } from '../../platform/references.ts';
import { scoped, tenantTable } from '../../platform/tenant-table.ts';

export interface MailClient {
  id: number;
  name: string;
  locale_code: string | null;
}

export interface MailContact {
  id: number;
  name: string;
  surname: string | null;
  email: string | null;
  locale_code: string | null;
}

/** Locks the live client the caller may see (a plain member's personal key sees its own clients only). */
export async function lockClient(ctx: Ctx, clientId: number): Promise<MailClient | undefined> {
  if (!(await lockLive(ctx, 'clients', clientId))) return undefined;
  return scoped
    .select(ctx, 'clients', 'c')
    .select(['c.id', 'c.name', 'c.locale_code'])
    .where('c.id', '=', clientId)
    .executeTakeFirst();
}

/** The client's live contacts, all of them or those of `ids`, oldest first. */
export async function contactsOf(ctx: Ctx, clientId: number, ids?: readonly number[]): Promise<MailContact[]> {
  let query = scoped
    .select(ctx, 'contacts', 'co')
    .select(['co.id', 'co.name', 'co.surname', 'co.email', 'co.locale_code'])
    .where('co.client_id', '=', clientId)
    .where('co.deleted_at', 'is', null);
  if (ids) query = query.where('co.id', 'in', [...ids]);
  return query.orderBy('co.id').execute();
}

/** Notes are the notes module's table; this module only adds the `email` note that logs a client e-mail. */
const notes = tenantTable('notes', { alias: 'n', softDelete: true });

export const insertEmailNote = (ctx: Ctx, clientId: number, comments: string) =>
  notes.insert(ctx, {
    related_type: 'client',
    related_id: clientId,
    type: 'email',
    comments,
    created_by_person_id: ctx.actor.personId,
  });
