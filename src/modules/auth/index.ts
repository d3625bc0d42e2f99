import { defineModule } from '../../platform/modules.ts';
import authRoutes from './auth.routes.ts';

export default defineModule({
  name: 'auth',
  tables: ['api_keys'],
  changesAuth: true,
  entity: 'api_key',
  routes: authRoutes,
});
