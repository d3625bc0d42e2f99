import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor } from '../db/database.ts';
import { writeSideRecords, type Ctx } from './context.ts';

export type EventAction = 'created' | 'updated' | 'deleted';

export type EventCatalogue = Readonly<Record<string, readonly EventAction[]>>;

/** How a stored record is shaped when it leaves the service, by entity (declared by the modules' `eventShapes`). */
export type EventShapes = Readonly<Record<string, (data: Record<string, unknown>) => Record<string, unknown>>>;

/** Events (the change feed) and with them their delivery rows and log are kept this long. */
export const EVENT_RETENTION_DAYS = 30;

/**
 * The event catalogue: which entity fires which action, declared by the modules (their `events`)
 * and installed when the modules are collected. It decides what is recorded, and so what webhooks
 * can deliver; GET /webhooks/events reads the same registry.
 */
let catalogue: EventCatalogue | undefined;

export function installEventCatalogue(events: EventCatalogue): void {
  catalogue = events;
}

export const eventName = (entity: string, action: EventAction) => `${entity}.${action}`;

export function fires(entity: string, action: EventAction): boolean {
  if (!catalogue) throw new Error('No event catalogue: collect the modules (loadModules) before writing');
  return catalogue[entity]?.includes(action) ?? false;
}

/**
 * Records an event in the outbox. Must run inside the transaction that makes the change, so the
 * change and its event commit together or not at all (they are written by its last statement, so a
 * query in the same transaction does not see them yet). Deleted events carry only {id}.
 */
export async function recordEvent(
  ctx: Ctx,
  entity: string,
  action: EventAction,
  record: { id: number } & Record<string, unknown>,
): Promise<void> {
  await recordEvents(ctx, entity, action, [record]);
}

export type EventRecords = ReadonlyArray<{ id: number } & Record<string, unknown>>;

/** What a web-origin write fires instead of v3 events (the legacy v1.0 engine's, installed by the modules). */
export type WebOriginEvents = (ctx: Ctx, entity: string, action: EventAction, records: EventRecords) => Promise<void>;

let webOrigin: WebOriginEvents | undefined;

export function installWebOriginEvents(handler: WebOriginEvents): void {
  webOrigin = handler;
}

/**
 * Whether the write ctx makes came from the web application (a session credential). The spec's "What fires":
 * only changes made through API v3 by keys, the assistant tool surface and the command line fire v3 events;
 * changes made in the web application fire none (docs/decisions/0054).
 */
export const isWebOrigin = (ctx: Ctx) => ctx.key.kind === 'session';

/**
 * One event per record in a single insert (bulk writes), in the order of `records`. The one place that decides
 * whether a write fires: a web-origin write records no v3 event (no delivery, no wake-up, nothing in the feed)
 * and hands its records to the legacy engine instead.
 */
export async function recordEvents(
  ctx: Ctx,
  entity: string,
  action: EventAction,
  records: EventRecords,
): Promise<void> {
  if (!ctx.db.isTransaction) throw new Error('recordEvent must run inside the transaction of the change');
  if (records.length === 0) return;
  if (isWebOrigin(ctx)) return webOrigin?.(ctx, entity, action, records);
  if (!fires(entity, action)) return;
  const occurredAt = new Date().toISOString();
  const rows = records.map((record) => ({
    company_id: ctx.companyId,
    uuid: randomUUID(),
    event: eventName(entity, action),
    entity,
    action,
    record_id: record.id,
    data: JSON.stringify(action === 'deleted' ? { id: record.id } : record),
    // 0: the service's own background work, not a key.
    api_key_id: ctx.key.id !== null && ctx.key.id > 0 ? ctx.key.id : null,
    person_id: ctx.actor.personId,
    occurred_at: occurredAt,
  }));
  await writeSideRecords(ctx.db, 'events', rows);
}

/** The occurred_at of sample events (GET /webhooks/example when the company has none of the kind yet). */
export const SAMPLE_STAMP = '2026-01-15T09:30:00.000Z';

/**
 * What an event's `data` carries wherever it leaves the service (feed, deliveries, examples): deleted
 * events only {id}; others the record in its entity's declared shape, whatever an older row stored.
 */
export function eventData(event: string, data: Record<string, unknown>, shapes: EventShapes): Record<string, unknown> {
  if (event.endsWith('.deleted')) return { id: data.id };
  const shape = shapes[event.slice(0, event.lastIndexOf('.'))];
  return shape ? shape(data) : data;
}

/** Deletes a batch of expired events; the delivery queue and log go with them (ON DELETE CASCADE). */
export async function purgeExpiredEvents(db: Executor): Promise<number> {
  const result = await sql`delete from events where (company_id, id) in (select company_id, id from events
    where occurred_at < now() - make_interval(days => ${EVENT_RETENTION_DAYS}) limit 5000)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
