import { defineModule } from '../../platform/modules.ts';
import customFieldRoutes from './custom-fields.routes.ts';

// What the five modules whose records carry custom_fields use: the value check and the list filter.
export {
  assertCustomFieldValues,
  customFieldConditions,
  customFieldFilterSchema,
  CUSTOM_FIELD_FILTER_PATTERN,
} from './custom-fields.values.ts';

// No events: the spec's event catalogue has no custom field entity.
export default defineModule({
  name: 'custom-fields',
  tables: ['custom_fields'],
  entity: 'custom_field',
  routes: customFieldRoutes,
});
