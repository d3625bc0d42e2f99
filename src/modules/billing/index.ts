import { defineModule } from '../../platform/modules.ts';
import billingRoutes from './billing.routes.ts';
import { catchUpDue, CATCH_UP_EVERY_MS } from './unbilled-work.service.ts';

/** The KPI report's billing gap; time entries' locked periods and the client their work belongs to. */
export { missedBillingTotals, type MissedTotals } from './missed-billing.service.ts';
/** The unbilled-work rollup's check (the CLI's `unbilled-work check`). */
export { checkUnbilledWork } from './unbilled-work.service.ts';
export { entryLocks, lockedPeriods, lockedPeriodsQuery, type BillingLock } from './billing.locks.ts';
export { workClient, workClientIs, workClientOf } from './billing.clients.ts';
/** The billable-work rule, so the reports count what the engine bills. */
export { billableWork } from './billing.work.repository.ts';

// The engine writes invoices through the invoices module, which records invoice.created; nothing of its own fires.
export default defineModule({
  name: 'billing',
  tables: [
    'invoiced_work_tasks',
    'unbilled_work',
    'unbilled_work_dirty',
    'unbilled_work_periods',
    'unbilled_work_state',
  ],
  entity: 'invoice',
  routes: billingRoutes,
  // Keeps the unbilled-work rollup close to the entries between reports (docs/decisions/0070).
  periodic: [{ name: 'unbilled-work', everyMs: CATCH_UP_EVERY_MS, run: (db) => catchUpDue(db) }],
});
