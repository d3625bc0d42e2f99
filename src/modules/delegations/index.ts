import { defineModule } from '../../platform/modules.ts';
import delegationRoutes from './delegations.routes.ts';

// The delegation's effect lives in src/platform/visibility.ts (taskVisible): one rule for every task read and write.
export default defineModule({
  name: 'delegations',
  entity: 'delegation',
  routes: delegationRoutes,
});
