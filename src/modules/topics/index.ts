import { defineModule } from '../../platform/modules.ts';
import topicRoutes from './topics.routes.ts';

export default defineModule({
  name: 'topics',
  tables: ['topics'],
  entity: 'topic',
  routes: topicRoutes,
});
