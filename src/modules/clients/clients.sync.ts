import type { Ctx } from '../../platform/context.ts';
import { cappedIds } from '../../platform/sql.ts';
import { scoped } from '../../platform/tenant-table.ts';

/** For an accounting sync: the live clients that are not template rows (type plan), counted, with the first ids. */
export const clientsForSync = (ctx: Ctx, cap: number) =>
  cappedIds(scoped.select(ctx, 'clients', 'x').where('x.deleted_at', 'is', null).where('x.type', '<>', 'plan'), cap);
