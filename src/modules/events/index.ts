import { defineModule } from '../../platform/modules.ts';
import eventRoutes from './events.routes.ts';

export default defineModule({
  name: 'events',
  tables: [],
  routes: eventRoutes,
});
