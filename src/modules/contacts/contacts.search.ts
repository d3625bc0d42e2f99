import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { idVisible } from '../../platform/visibility.ts';

/**
 * The contacts source of GET /search (the search module unions it with the others in one statement): live contacts
 * of clients the caller sees, by full name, surname or e-mail; rank 0 when one of them starts with the text, else 1.
 */
export function contactSearchHits(ctx: Ctx, p: { contains: string; prefix: string }) {
  const fullName = sql<string>`trim(ct.name || ' ' || coalesce(ct.surname, ''))`;
  return scoped
    .select(ctx, 'contacts', 'ct')
    .select([
      sql<'contact'>`'contact'`.as('type'),
      'ct.id',
      fullName.as('title'),
      sql<string | null>`ct.email`.as('subtitle'),
      sql<number | null>`ct.client_id`.as('client_id'),
      sql<number>`case when ${fullName} ilike ${p.prefix} or ct.surname ilike ${p.prefix} or ct.email ilike ${p.prefix} then 0 else 1 end`.as(
        'rank',
      ),
    ])
    .where('ct.deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb(fullName, 'ilike', p.contains),
        eb('ct.surname', 'ilike', p.contains),
        eb('ct.email', 'ilike', p.contains),
      ]),
    )
    .where(idVisible(ctx, 'clients', 'ct.company_id', 'ct.client_id'));
}
