import { defineModule } from '../../platform/modules.ts';
import authRoutes from './auth.routes.ts';

export default defineModule({
  name: 'auth',
  tables: ['api_keys'],
  changesAuth: true,
  entity: 'api_key',
  routes: authRoutes,
});

// For company creation: the owner's first key, written by the keys' owner.
export { insertOwnerKey } from './auth.owner-key.ts';
