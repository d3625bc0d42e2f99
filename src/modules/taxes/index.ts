import { defineModule } from '../../platform/modules.ts';
import taxRoutes from './taxes.routes.ts';

// Taxes fire no events: the spec's event catalogue has no tax entity.
export default defineModule({
  name: 'taxes',
  tables: ['taxes'],
  entity: 'tax',
  routes: taxRoutes,
});
