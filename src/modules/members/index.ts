import { defineModule } from '../../platform/modules.ts';
import memberRoutes from './members.routes.ts';

export default defineModule({
  name: 'members',
  entity: 'member',
  routes: memberRoutes,
});
