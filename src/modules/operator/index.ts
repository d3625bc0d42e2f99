import { defineModule } from '../../platform/modules.ts';
import { operatorRoutes } from './operator.routes.ts';

// Platform administration under /operator, with its own token: not part of v3 nor of its OpenAPI document.
export default defineModule({
  name: 'operator',
  tables: [],
  mounts: [{ prefix: '/operator', routes: operatorRoutes }],
});
