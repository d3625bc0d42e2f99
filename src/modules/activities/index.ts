import { defineModule } from '../../platform/modules.ts';
import { ownPerson } from '../../platform/visibility.ts';
import activityRoutes from './activities.routes.ts';

export default defineModule({
  name: 'activities',
  tables: ['activities'],
  // A plain member sees the audit trail of their own person's writes only.
  visibility: { activities: ownPerson('person_id') },
  routes: activityRoutes,
});

// For task automations: the audit row of a write that no request made.
export { recordUnattended, type UnattendedActivity } from './activities.repository.ts';
