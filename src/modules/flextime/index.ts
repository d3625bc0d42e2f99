import { defineModule } from '../../platform/modules.ts';
import flextimeRoutes from './flextime.routes.ts';

// Flextime fires no events: the spec's event catalogue has no flextime entity.
export default defineModule({
  name: 'flextime',
  tables: ['flextime_rows'],
  entity: 'flextime',
  routes: flextimeRoutes,
});
