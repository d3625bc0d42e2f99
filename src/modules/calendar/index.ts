import { defineModule } from '../../platform/modules.ts';
import calendarRoutes from './calendar.routes.ts';

export default defineModule({
  name: 'calendar',
  entity: 'calendar',
  routes: calendarRoutes,
});
