import { randomUUID } from 'node:crypto';
import type { Ctx } from './context.ts';

export type EventAction = 'created' | 'updated' | 'deleted';

/**
 * The event catalogue: which entity fires which action. This one table decides what is
 * recorded (and so what webhooks can deliver); the webhook catalogue endpoint reads it too.
 */
export const EVENT_CATALOGUE: Record<string, readonly EventAction[]> = {
  client: ['created', 'updated', 'deleted'],
  contact: ['created', 'updated', 'deleted'],
  task: ['created', 'updated', 'deleted'],
  project: ['created', 'updated', 'deleted'],
  invoice: ['created', 'updated'],
  time_entry: ['created'],
};

export const eventName = (entity: string, action: EventAction) => `${entity}.${action}`;

export function fires(entity: string, action: EventAction): boolean {
  return EVENT_CATALOGUE[entity]?.includes(action) ?? false;
}

/**
 * Records an event in the outbox. Must run inside the transaction that makes the change, so the
 * change and its event commit together or not at all. Deleted events carry only {id}.
 */
export async function recordEvent(ctx: Ctx, entity: string, action: EventAction, record: { id: number } & Record<string, unknown>): Promise<void> {
  await recordEvents(ctx, entity, action, [record]);
}

/** One event per record in a single insert (bulk writes), in the order of `records`. */
export async function recordEvents(ctx: Ctx, entity: string, action: EventAction, records: ReadonlyArray<{ id: number } & Record<string, unknown>>): Promise<void> {
  if (!ctx.db.isTransaction) throw new Error('recordEvent must run inside the transaction of the change');
  if (!fires(entity, action) || records.length === 0) return;
  const occurredAt = new Date().toISOString();
  await ctx.db
    .insertInto('events')
    .values(records.map((record) => ({
      company_id: ctx.companyId,
      uuid: randomUUID(),
      event: eventName(entity, action),
      entity,
      action,
      record_id: record.id,
      data: JSON.stringify(action === 'deleted' ? { id: record.id } : record),
      api_key_id: ctx.key.id > 0 ? ctx.key.id : null, // 0: the service's own background work, no key
      person_id: ctx.actor.personId,
      occurred_at: occurredAt,
    })))
    .execute();
}
