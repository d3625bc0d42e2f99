import { defineModule } from '../../platform/modules.ts';
import memberRoutes from './members.routes.ts';

export default defineModule({
  name: 'members',
  tables: ['members', 'people'],
  changesAuth: true,
  entity: 'member',
  routes: memberRoutes,
});

// For company creation, the demo owner and accepted invitations: people and members written by their owner.
export { activateInvited, addPersonMember, initialsOf, linkAccount, type FirstMember } from './members.people.ts';
