import { defineModule } from '../../platform/modules.ts';
import { ownPerson } from '../../platform/visibility.ts';
import delegationRoutes from './delegations.routes.ts';

// The delegation's effect: the tasks' visibility rule (taskVisible) reads who delegates to the member from here.
export { taskDelegatorsSql } from './delegations.facts.ts';

export default defineModule({
  name: 'delegations',
  tables: ['delegations'],
  // A plain member sees the delegations they give or receive.
  visibility: { delegations: ownPerson('delegator_id', 'delegate_id') },
  entity: 'delegation',
  routes: delegationRoutes,
});
