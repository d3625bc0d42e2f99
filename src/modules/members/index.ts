import { defineModule } from '../../platform/modules.ts';
import memberRoutes from './members.routes.ts';

export default defineModule({
  name: 'members',
  changesAuth: true,
  entity: 'member',
  routes: memberRoutes,
});
