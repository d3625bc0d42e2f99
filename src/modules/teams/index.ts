import { defineModule } from '../../platform/modules.ts';
import teamRoutes from './teams.routes.ts';

export default defineModule({
  name: 'teams',
  tables: ['team_members', 'teams'],
  entity: 'team',
  routes: teamRoutes,
});
