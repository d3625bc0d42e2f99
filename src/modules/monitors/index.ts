import { defineModule } from '../../platform/modules.ts';
import monitorRoutes from './monitors.routes.ts';

// Monitors fire no events: the spec's event catalogue has no monitor entity. Every monitor write keeps the client's
// has_monitor flag in step, in the same transaction, with one SQL update through the tenant gateway.
export default defineModule({
  name: 'monitors',
  tables: ['monitors'],
  entity: 'monitor',
  routes: monitorRoutes,
});
