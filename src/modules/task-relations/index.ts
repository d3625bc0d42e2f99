import { defineModule } from '../../platform/modules.ts';
import taskRelationRoutes from './task-relations.routes.ts';

export default defineModule({
  name: 'task-relations',
  tables: ['task_relations'],
  entity: 'task_relation',
  routes: taskRelationRoutes,
});
