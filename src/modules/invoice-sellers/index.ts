import { defineModule } from '../../platform/modules.ts';
import invoiceSellerRoutes from './invoice-sellers.routes.ts';

// Sellers fire no events: the spec's event catalogue has no seller entity.
export default defineModule({
  name: 'invoice-sellers',
  tables: ['invoice_sellers'],
  entity: 'invoice_seller',
  routes: invoiceSellerRoutes,
});
