import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped } from '../../platform/tenant-table.ts';

// Whom a client e-mail (content-templates) goes to: the contacts and the one rule of a mailable address.

export interface MailContact {
  id: number;
  name: string;
  surname: string | null;
  /** Trimmed; usable only when `mailable`. */
  email: string | null;
  locale_code: string | null;
  mailable: boolean;
}

/** What a mail can be sent to: one address, no spaces, no list or header characters (the one rule, in SQL). */
const MAILABLE = '^[^\\s@<>,;"]+@[^\\s@<>,;"]+\\.[^\\s@<>,;"]+$';
const mailable = sql<boolean>`coalesce(btrim(co.email) ~ ${MAILABLE}, false)`;

/**
 * The client's live contacts, oldest first: those of `ids` (mailable or not, so the caller can name those that
 * are not), else the mailable ones, at most `limit` (the caller asks one more than its cap to see it passed).
 */
export async function mailContacts(
  ctx: Ctx,
  clientId: number,
  which: { ids: readonly number[] } | { limit: number },
): Promise<MailContact[]> {
  let query = scoped
    .select(ctx, 'contacts', 'co')
    .select(['co.id', 'co.name', 'co.surname', sql<string | null>`btrim(co.email)`.as('email'), 'co.locale_code'])
    .select(mailable.as('mailable'))
    .where('co.client_id', '=', clientId)
    .where('co.deleted_at', 'is', null);
  query = 'ids' in which ? query.where('co.id', 'in', [...which.ids]) : query.where(mailable).limit(which.limit);
  return query.orderBy('co.id').execute();
}
