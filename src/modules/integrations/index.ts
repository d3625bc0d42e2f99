import { defineModule } from '../../platform/modules.ts';
import integrationRoutes from './integrations.routes.ts';
import { runSyncJob, SYNC_JOB } from './integrations.service.ts';

/** What an accounting integration reads: the invoices it still has to take, and a reference-data sync job. */
export default defineModule({
  name: 'integrations',
  tables: [],
  entity: 'integration',
  routes: integrationRoutes,
  jobs: { [SYNC_JOB]: runSyncJob },
});
