import { defineModule } from '../../platform/modules.ts';
import memberRoutes from './members.routes.ts';

export default defineModule({
  name: 'members',
  tables: ['members', 'people'],
  changesAuth: true,
  entity: 'member',
  routes: memberRoutes,
});

// For keys, flextime and agreements: whether a person is a (an active) member, and the person a key acts for.
export { isActiveMemberPerson, isMemberPerson, personOfMember, personWithRole } from './members.repository.ts';
// For invitations: the member an invitation is for, made pending, renamed, or ended with a cancel.
export { addPendingMember, cancelPendingMember, lockMemberBy, renameInvited } from './members.invited.ts';
// For company creation, the demo owner and accepted invitations: people and members written by their owner.
export { activateInvited, addPersonMember, initialsOf, linkAccount, type FirstMember } from './members.people.ts';
// Who can take work (the client workflow's managers and members).
export { workingMembers } from './members.working.ts';
// For invoices: the acting person as the seller's contact.
export { personContactLine } from './members.contact.ts';
// For flextime and time entries: members as their list's rows and as parts of their statements.
export { memberBalanceBasisSql, memberPersonIdsSql, memberRows } from './members.facts.ts';
