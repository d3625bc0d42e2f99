import { defineModule } from '../../platform/modules.ts';
import clientGroupRoutes from './client-groups.routes.ts';

export default defineModule({
  name: 'client-groups',
  tables: ['client_group_links', 'client_groups'],
  entity: 'client_group',
  routes: clientGroupRoutes,
});

// For the workflow apply: whether a client is in a group, a condition of its client query.
export { inGroupSql } from './client-groups.refs.ts';
