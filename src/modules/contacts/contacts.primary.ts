import type { Ctx } from '../../platform/context.ts';
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
