import { defineModule } from '../../platform/modules.ts';
import clientWorkflowRoutes from './client-workflow.routes.ts';
import { BULK_MEMBER_JOB_TYPE, runBulkMemberJob } from './client-workflow.bulk.ts';

// The client endpoints beyond the record itself: manager, member roles, workflow tasks, bulk membership.
export default defineModule({
  name: 'client-workflow',
  tables: [],
  entity: 'client',
  routes: clientWorkflowRoutes,
  jobs: { [BULK_MEMBER_JOB_TYPE]: runBulkMemberJob },
});
