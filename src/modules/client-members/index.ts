import { defineModule } from '../../platform/modules.ts';
import clientMemberRoutes from './client-members.routes.ts';

export default defineModule({
  name: 'client-members',
  entity: 'client_member',
  routes: clientMemberRoutes,
});
