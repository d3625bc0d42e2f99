import { defineModule } from '../../platform/modules.ts';
import { legacyRoutes } from './legacy-webhooks.routes.ts';
import { recordLegacyEvents } from './legacy-webhooks.events.ts';

// The legacy v1.0 engine: its own API under /api/v1.0 beside v3, and what web-origin writes fire (docs/decisions/0054).
export default defineModule({
  name: 'legacy-webhooks',
  tables: ['legacy_tokens', 'legacy_webhook_deliveries', 'legacy_webhook_subscriptions'],
  mounts: [{ prefix: '/api/v1.0', routes: legacyRoutes }],
  onWebOriginEvent: recordLegacyEvents,
});
