import { defineModule } from '../../platform/modules.ts';
import memberRoutes from './members.routes.ts';

export default defineModule({
  name: 'members',
  tables: ['members', 'people'],
  changesAuth: true,
  entity: 'member',
  routes: memberRoutes,
});
