import { defineModule } from '../../platform/modules.ts';
import searchRoutes from './search.routes.ts';

export default defineModule({
  name: 'search',
  tables: [],
  routes: searchRoutes,
});
