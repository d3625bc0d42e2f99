import { defineModule } from '../../platform/modules.ts';
import invoiceSellerRoutes from './invoice-sellers.routes.ts';

// Sellers fire no events: the spec's event catalogue has no seller entity.
// For billing settings: the default seller must be an active one.
export { isActiveSeller } from './invoice-sellers.repository.ts';
// For invoices: the seller they copy.
export { sellerSnapshot, type SellerSnapshot } from './invoice-sellers.repository.ts';
// For the accounting sync's summary.
export { sellersForSync } from './invoice-sellers.repository.ts';

export default defineModule({
  name: 'invoice-sellers',
  tables: ['invoice_sellers'],
  entity: 'invoice_seller',
  routes: invoiceSellerRoutes,
});
