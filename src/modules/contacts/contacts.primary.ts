import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { nameAndEmail } from '../../platform/sql.ts';
import { scoped } from '../../platform/tenant-table.ts';

/** The e-mail of the client's primary contact (the oldest, should there be several): an invoice's last-resort recipient. */
export async function primaryContactEmail(ctx: Ctx, clientId: number): Promise<string | undefined> {
  const row = await scoped
    .select(ctx, 'contacts', 'co')
    .select('co.email')
    .where('co.client_id', '=', clientId)
    .where('co.is_primary', '=', 1)
    .where('co.deleted_at', 'is', null)
    .where('co.email', 'is not', null)
    .where('co.email', '<>', '')
    .orderBy('co.id')
    .executeTakeFirst();
  return row?.email ?? undefined;
}

/**
 * The client's primary (else first) live contact as "Name Surname <e-mail>": a correlated subquery for a client
 * query aliased `c` (an invoice's client snapshot reads it in the same statement).
 */
export function primaryContactLine(): RawBuilder<string | null> {
  return sql<string | null>`(select ${nameAndEmail('p')} from contacts p where p.company_id = c.company_id
    and p.client_id = c.id and p.deleted_at is null order by p.is_primary desc, p.id limit 1)`;
}
