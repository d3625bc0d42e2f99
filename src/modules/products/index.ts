import type { FastifyInstance } from 'fastify';
import { defineModule } from '../../platform/modules.ts';
import priceRoutes from './prices.routes.ts';
import productRoutes from './products.routes.ts';

// For invoices and contracts: the net price of a product on a day, in a currency.
export { priceOn } from './prices.repository.ts';
// For contract and invoice rows: name, status, unit, tax and whether any price exists, of the products they name.
export { productFacts, type ProductFacts } from './products.repository.ts';
// For the billing engine's SQL: the same rule as a subquery, and the days a product's price can change.
export { priceInEffectSql, priceStartsSql, type SqlOperand } from './prices.repository.ts';
// For the reports' bi_state: whether any live product is priced by a day.
export { anyProductPriceSql } from './prices.repository.ts';
// For the accounting sync's summary.
export { productsForSync } from './products.repository.ts';

// Products fire no events: the spec's event catalogue has no product entity.
export default defineModule({
  name: 'products',
  tables: ['product_prices', 'products'],
  entity: 'product',
  routes: async (app: FastifyInstance) => {
    await productRoutes(app);
    await priceRoutes(app);
  },
});
