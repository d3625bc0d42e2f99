import { defineModule } from '../../platform/modules.ts';
import activityRoutes from './activities.routes.ts';

export default defineModule({
  name: 'activities',
  routes: activityRoutes,
});
