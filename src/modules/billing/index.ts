import { defineModule } from '../../platform/modules.ts';
import billingRoutes from './billing.routes.ts';

/** The KPI report's billing gap; time entries' locked periods and the client their work belongs to. */
export { missedBillingTotals, type MissedTotals } from './missed-billing.service.ts';
export { entryLocks, lockedPeriods, lockedPeriodsQuery, type BillingLock } from './billing.locks.ts';
export { workClient, workClientIs, workClientOf } from './billing.clients.ts';
/** The billable-work rule, so the reports count what the engine bills. */
export { billableWork } from './billing.work.repository.ts';

// The engine writes invoices through the invoices module, which records invoice.created; nothing of its own fires.
export default defineModule({
  name: 'billing',
  tables: ['invoiced_work_tasks'],
  entity: 'invoice',
  routes: billingRoutes,
});
