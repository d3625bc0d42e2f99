import { defineModule } from '../../platform/modules.ts';
import productFieldRoutes from './product-fields.routes.ts';
import { insertSystemFields } from './product-fields.repository.ts';
import { SYSTEM_PRODUCT_FIELDS } from './product-fields.schemas.ts';

// For products, contracts and invoices: checks of article_id, resource_id and billing_project_id.
export {
  assertProductFieldReferences,
  productFieldFacts,
  productFieldProblem,
  type ProductFieldFacts,
  type ProductFieldRefs,
} from './product-fields.references.ts';

// Product fields fire no events: the spec's event catalogue has no product field entity.
export default defineModule({
  name: 'product-fields',
  tables: ['product_fields'],
  entity: 'product_field',
  routes: productFieldRoutes,
  // Run inside createCompany's transaction: every company has the system entries.
  seeders: [(db, companyId) => insertSystemFields(db, companyId, SYSTEM_PRODUCT_FIELDS)],
});
