import { defineModule } from '../../platform/modules.ts';
import taxRoutes from './taxes.routes.ts';

// For products, contract rows and invoice rows: the name, rate and status of the taxes they name.
export { taxFacts, type TaxFacts } from './taxes.repository.ts';
// For the accounting sync's summary.
export { taxesForSync } from './taxes.repository.ts';

// Taxes fire no events: the spec's event catalogue has no tax entity.
export default defineModule({
  name: 'taxes',
  tables: ['taxes'],
  entity: 'tax',
  routes: taxRoutes,
});
