import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import type { EventAction, EventRecords } from '../../platform/events.ts';
import type { LegacyEvent } from './legacy-webhooks.schemas.ts';

/** The spec's v1.0 events: records created in the web application, clients and contacts only. */
const LEGACY_EVENT_OF: Readonly<Record<string, LegacyEvent>> = {
  'client.created': 'client_added',
  'contact.created': 'contact_added',
};

/**
 * Queues a web-origin write's v1.0 deliveries, in its transaction: one row per subscription of the company to
 * that event, carrying the body as it will be sent (the flat record, as GET /api/v3 shows it, no envelope), so
 * every retry sends the same bytes. Nothing is queued when the company has no such subscription.
 */
export async function recordLegacyEvents(
  ctx: Ctx,
  entity: string,
  action: EventAction,
  records: EventRecords,
): Promise<void> {
  const event = LEGACY_EVENT_OF[`${entity}.${action}`];
  if (!event) return;
  for (const record of records) {
    // tenant: deliberate SQL (an insert-select over the company's subscriptions)
    await sql`insert into legacy_webhook_deliveries (company_id, subscription_id, body)
      select s.company_id, s.id, ${JSON.stringify(record)} from legacy_webhook_subscriptions s
       where s.company_id = ${ctx.companyId} and s.webhook = ${event}`.execute(ctx.db);
  }
}
