import { defineModule } from '../../platform/modules.ts';
import supplierRoutes from './suppliers.routes.ts';
import supplierTypeRoutes from './supplier-types.routes.ts';
import { insertDefaultTypes } from './supplier-types.repository.ts';
import { SUPPLIER_TYPE_DEFAULTS } from './supplier-types.schemas.ts';

// Suppliers fire no events: the spec's event catalogue has no supplier entity.
export default defineModule({
  name: 'suppliers',
  tables: ['supplier_types', 'suppliers'],
  entity: 'supplier',
  routes: async (app) => {
    await app.register(supplierRoutes);
    await app.register(supplierTypeRoutes);
  },
  // Run inside createCompany's transaction: a new company can type its suppliers at once.
  seeders: [(db, companyId) => insertDefaultTypes(db, companyId, SUPPLIER_TYPE_DEFAULTS)],
});
