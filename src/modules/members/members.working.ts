import type { Ctx } from '../../platform/context.ts';
import { scoped } from '../../platform/tenant-table.ts';

/** Members who can take work: anyone but an inactive member (pending and limited members included). */
export async function workingMembers(ctx: Ctx, personIds: readonly number[]): Promise<Set<number>> {
  if (personIds.length === 0) return new Set();
  const rows = await scoped
    .select(ctx, 'members', 'm')
    .select('m.person_id')
    .where('m.person_id', 'in', [...personIds])
    .where('m.status', '<>', 'inactive')
    .execute();
  return new Set(rows.map((r) => r.person_id));
}
