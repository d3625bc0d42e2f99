import { defineModule } from '../../platform/modules.ts';
import reclaimRoutes from './reclaims.routes.ts';

// Reclaims fire no events: the spec's event catalogue has no reclaim entity, and time entries fire on creation only.
export default defineModule({
  name: 'reclaims',
  tables: ['reclaim_entries', 'reclaims'],
  entity: 'reclaim',
  routes: reclaimRoutes,
});
