import { defineModule } from '../../platform/modules.ts';
import invitationRoutes from './invitations.routes.ts';

export { settleInvitationMails } from './invitations.service.ts';

/** Invitations to a company's team (docs/decisions/0053): managed through a web session, accepted by a link. */
export default defineModule({
  name: 'invitations',
  tables: ['invitations'],
  changesAuth: true,
  entity: 'invitation',
  routes: invitationRoutes,
});
