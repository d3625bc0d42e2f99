import { defineModule } from '../../platform/modules.ts';
import { clientVisible } from './clients.visibility.ts';
import clientRoutes from './clients.routes.ts';
import { SAMPLE_STAMP as STAMP } from '../../platform/events.ts';

// For modules that write under a client (lock it first) or change what a client reads as (groups).
export { findClient, lockClient, touchClient } from './clients.repository.ts';
export { leanClient } from './clients.service.ts';
// What others ask of a client instead of reading the clients table themselves.
export {
  activeClientSql,
  clientManageable,
  clientSeen,
  liveClientIds,
  liveClientSql,
  lockClientManager,
  lockClientRows,
  lockVisibleClients,
  mailClient,
  setClientManager,
  setHasMonitor,
  visibleClient,
  visibleClientIds,
} from './clients.facts.ts';
/** Invoices copy the client (clientSnapshot); their documents show its address in its parts. */
export { clientAddressParts, type ClientAddressParts } from './clients.address.ts';
export { clientSnapshot, type ClientSnapshot } from './clients.snapshot.ts';
// For the accounting sync's summary.
export { clientsForSync } from './clients.sync.ts';

export default defineModule({
  name: 'clients',
  tables: ['clients'],
  visibility: { clients: clientVisible },
  entity: 'client',
  routes: clientRoutes,
  events: { client: ['created', 'updated', 'deleted'] },
  samples: {
    client: {
      id: 101,
      name: 'Acme Ltd',
      status: 'active',
      type: 'client',
      locale_code: 'en',
      reg_code: '12345678',
      vat_code: null,
      address_street: '1 Main Street',
      address_city: 'Springfield',
      address_state: null,
      address_zip: '12345',
      address_country_code: 'us',
      default_person_id: 7,
      ext_client_id: null,
      client_initials: 'AL',
      parent_id: null,
      endpoint_id: null,
      endpoint_scheme: null,
      has_monitor: 0,
      timing_required: 0,
      topic_required: 0,
      custom_fields: null,
      groups: [],
      created_at: STAMP,
      updated_at: STAMP,
    },
  },
  // Client events carry the lean client (no nested contacts), whatever an older row stored.
  eventShapes: { client: ({ contacts: _contacts, contacts_truncated: _truncated, ...lean }) => lean },
});

// For the workflow engines and the task list: template (plan) clients, and the customers a workflow applies to.
export {
  deletePlanClient,
  insertPlanClient,
  isPlanClient,
  matchingCustomerIds,
  planClientSql,
  renamePlanClient,
  seenClientSql,
  visibleCustomerIds,
} from './clients.plans.ts';
