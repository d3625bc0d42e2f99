import { defineModule } from '../../platform/modules.ts';
import roleRoutes from './roles.routes.ts';

export default defineModule({
  name: 'roles',
  tables: ['roles'],
  entity: 'role',
  routes: roleRoutes,
});
