import { defineModule } from '../../platform/modules.ts';
import agreementRoutes from './agreements.routes.ts';

// Agreements fire no events: the spec's event catalogue has no agreement entity. Other modules (flextime, KPI
// reports) read the `agreements` table in SQL, which holds live rows only (deleted ones move to agreements_deleted).
export default defineModule({
  name: 'agreements',
  tables: ['agreements', 'agreements_deleted'],
  entity: 'agreement',
  routes: agreementRoutes,
});

// For the flextime balance: the time each day's agreement expects, inside its one statement.
export { agreementDaysSql } from './agreements.facts.ts';
