import { defineModule } from '../../platform/modules.ts';
import { throughParent } from '../../platform/visibility.ts';
import clientMemberRoutes from './client-members.routes.ts';

export default defineModule({
  name: 'client-members',
  tables: ['client_members'],
  visibility: { client_members: throughParent('clients', 'client_id') },
  entity: 'client_member',
  routes: clientMemberRoutes,
});

// For the client workflow: live memberships, their bulk writes and the role holders of a task.
export {
  clearRolesExcept,
  countRoleHolders,
  endMemberships,
  ensureMembers,
  liveMembers,
  roleHolderIds,
} from './client-members.roles.ts';
