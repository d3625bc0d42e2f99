import type { Ctx } from '../../platform/context.ts';
import { nameAndEmail } from '../../platform/sql.ts';
import { scoped } from '../../platform/tenant-table.ts';

/** The person as a contact line ("Name Surname <e-mail>"), e.g. the seller's contact on an invoice; null when none. */
export async function personContactLine(ctx: Ctx, personId: number): Promise<string | null> {
  const row = await scoped
    .select(ctx, 'people', 'p')
    .where('p.id', '=', personId)
    .select(nameAndEmail('p').as('contact'))
    .executeTakeFirst();
  return row?.contact ?? null;
}
