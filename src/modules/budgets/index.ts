import { defineModule } from '../../platform/modules.ts';
import budgetRoutes from './budgets.routes.ts';

// Budgets fire no events: the spec's event catalogue has no budget entity.
export default defineModule({
  name: 'budgets',
  tables: ['budgets'],
  entity: 'budget',
  routes: budgetRoutes,
});
