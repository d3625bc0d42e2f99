import { defineModule } from '../../platform/modules.ts';
import teamRoutes from './teams.routes.ts';

export default defineModule({
  name: 'teams',
  entity: 'team',
  routes: teamRoutes,
});
