import type { Ctx } from '../../platform/context.ts';
import { scoped } from '../../platform/tenant-table.ts';

/**
 * Each job's status and error, as a derived table another module joins in its own statement (a digitization's state
 * is its job's). Aliased `j`; PostgreSQL flattens it into the join, so the plan is the plain join's.
 */
export const jobStates = (ctx: Ctx) =>
  scoped.select(ctx, 'jobs', 'js').select(['js.company_id', 'js.id', 'js.status', 'js.error']).as('j');
