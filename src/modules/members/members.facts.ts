import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { tenant } from '../../platform/tenant-table.ts';
import { members } from './members.repository.ts';

// What other modules read of members inside their own statements, so that the members table is named here.

/** The company's members (alias m, any status): flextime's balance list pages over them by person. */
export const memberRows = (ctx: Ctx) => members.base(ctx);

/** The persons among `ids` who are members of the company, of any member status (a subquery of one column). */
export function memberPersonIdsSql(ctx: Ctx, ids: readonly number[]): RawBuilder<number> {
  return sql<number>`select m.person_id from members m where ${tenant(ctx, 'm')} and m.person_id = any(${[...ids]}::int[])`;
}

/**
 * Per member among the persons `ids` (an int[] expression): their country (which global holidays apply) and
 * their flextime credit (the balance's opening hours), as the rows of a CTE.
 */
export function memberBalanceBasisSql(ctx: Ctx, ids: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`select m.person_id, m.address_country_code as country, m.flextime_credit
      from members m where ${tenant(ctx, 'm')} and m.person_id = any(${ids})`;
}
