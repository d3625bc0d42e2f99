import { defineModule } from '../../platform/modules.ts';
import webhookRoutes from './webhooks.routes.ts';
import { SAMPLE_STAMP as STAMP } from '../../platform/events.ts';

// The delivery format, for the delivery engine (src/background/webhooks): one builder for live sends and examples.
export { buildDelivery, type DeliveryRequest, type OutboundEvent } from './webhooks.payload.ts';

export default defineModule({
  name: 'webhooks',
  entity: 'webhook',
  routes: webhookRoutes,
  // Invoice events are in the spec's catalogue already; they move to the invoices module when it exists.
  events: { invoice: ['created', 'updated'] },
  samples: {
    invoice: {
      id: 4001,
      client_id: 101,
      contract_id: null,
      status: 'draft',
      invoice_number: null,
      invoice_date: '2026-01-15',
      due_date: '2026-01-29',
      net_sum: 1000,
      tax_sum: 220,
      total_sum: 1220,
      paid_sum: 0,
      currency: 'EUR',
      created_at: STAMP,
      updated_at: STAMP,
    },
  },
});
