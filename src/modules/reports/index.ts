import { defineModule } from '../../platform/modules.ts';
import reportRoutes from './reports.routes.ts';
import { refreshDue, REFRESH_EVERY_MS } from './reports.snapshots.ts';

// Reports fire no events: the spec's event catalogue has no report entity.
export default defineModule({
  name: 'reports',
  tables: ['report_snapshots'],
  entity: 'report',
  routes: reportRoutes,
  // Keeps the KPI snapshots of the windows people read fresher than they may be served (docs/decisions/0026).
  periodic: [{ name: 'report-snapshots', everyMs: REFRESH_EVERY_MS, run: (db, now) => refreshDue(db, now) }],
});
