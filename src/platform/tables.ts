import type { DB } from '../db/schema.ts';

/**
 * The tables no module of the module list declares, by owner: the platform's own (the outbox of events,
 * idempotency, settings) and the background's delivery queues.
 * Together with each module's `tables`, every table of the schema has exactly one owner
 * (test/architecture/table-ownership.test.ts).
 */
export const TABLES_OUTSIDE_MODULES: Record<string, readonly (keyof DB)[]> = {
  platform: ['events', 'idempotency_keys', 'platform_settings'],
  // Modules enqueue mail and notifications, and the background delivers them; the pacing is the deliverer's alone.
  background: ['mail_outbox', 'notifications', 'webhook_pacing'],
};
