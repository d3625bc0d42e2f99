import { defineModule } from '../../platform/modules.ts';
import webhookRoutes from './webhooks.routes.ts';
import { deliveryReadings } from './webhooks.backlog.ts';

// The delivery format, for the delivery engine (src/background/webhooks): one builder for live sends and examples.
export { buildDelivery, type DeliveryRequest, type OutboundEvent } from './webhooks.payload.ts';
// The delivery backlog and lag, for the operator's status view (GET /metrics reads them through `readings`).
export { deliveryBacklog, type DeliveryBacklog } from './webhooks.backlog.ts';

export default defineModule({
  name: 'webhooks',
  tables: ['webhook_attempts', 'webhook_deliveries', 'webhooks'],
  entity: 'webhook',
  routes: webhookRoutes,
  readings: deliveryReadings,
});
