import { defineModule } from '../../platform/modules.ts';
import workflowRoleRoutes from './workflow-roles.routes.ts';

export default defineModule({
  name: 'workflow-roles',
  tables: ['workflow_roles'],
  entity: 'workflow_role',
  routes: workflowRoleRoutes,
});
