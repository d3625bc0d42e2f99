import { defineModule } from '../../platform/modules.ts';
import webhookRoutes from './webhooks.routes.ts';

// The delivery format, for the delivery engine (src/background/webhooks): one builder for live sends and examples.
export { buildDelivery, type DeliveryRequest, type OutboundEvent } from './webhooks.payload.ts';

export default defineModule({
  name: 'webhooks',
  tables: ['webhook_attempts', 'webhook_deliveries', 'webhooks'],
  entity: 'webhook',
  routes: webhookRoutes,
});
