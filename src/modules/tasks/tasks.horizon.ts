import type { Executor } from '../../db/database.ts';
import { inTransaction, type Ctx } from '../../platform/context.ts';
import { systemActor } from '../../platform/system-actor.ts';
import { syncOccurrences } from './tasks.occurrences.ts';
import type { RecurrenceRule } from './tasks.recurrence.ts';
import * as repo from './tasks.repository.ts';

// A type, not an interface: a periodic task reports it as a record of counts.
export type HorizonResult = {
  masters: number;
  created: number;
  failed: number;
};

/** One master in its own transaction, locked like a rule change so the two never race over a day. */
async function extendMaster(ctx: Ctx, id: number, now: Date): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const locked = await repo.lockTask(tx, id);
    if (!locked || locked.is_recurring !== 1 || locked.recurrence_rule === null) return 0;
    const master = (await repo.findTask(tx, id, false))!;
    return syncOccurrences(tx, master, locked.recurrence_rule as RecurrenceRule, now);
  });
}

/**
 * Keeps every live recurring series materialised HORIZON_DAYS ahead of `now`, in each company's timezone,
 * as time moves on (a rule is otherwise only expanded when set or changed). Idempotent: days that have
 * their occurrence are left alone (and the one-live-occurrence-per-day index backs that up); each new
 * occurrence fires task.created in its transaction, as a rule change does. A failing master does not stop the rest.
 */
export async function extendOccurrenceHorizons(db: Executor, now = new Date()): Promise<HorizonResult> {
  const result: HorizonResult = { masters: 0, created: 0, failed: 0 };
  const contexts = new Map<string, Ctx | undefined>();
  for (const { company_id, id } of await repo.recurringMasters(db)) {
    if (!contexts.has(company_id)) {
      const actor = await systemActor(db, company_id);
      contexts.set(company_id, actor && { ...actor, db, requestId: 'occurrence-horizon' });
    }
    const ctx = contexts.get(company_id);
    if (!ctx) continue;
    result.masters++;
    try {
      result.created += await extendMaster(ctx, id, now);
    } catch {
      result.failed++;
    }
  }
  return result;
}
