import { sql } from 'kysely';
import { asBigRead } from '../../platform/big-read.ts';
import type { Executor } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import { systemActor } from '../../platform/system-actor.ts';
import { contractedClients } from './missed-billing.repository.ts';
import * as repo from './unbilled-work.repository.ts';

/** A failure of the data (a value that cannot be read), as opposed to the database being unreachable. */
export const dataFailure = (error: unknown) => /^(22|23|42|XX)/.test(String((error as { code?: unknown })?.code ?? ''));

/** Runs fn in a savepoint; false when the data made it fail (rolled back), any other failure is thrown. */
async function attempt(ctx: Ctx, fn: () => Promise<void>): Promise<boolean> {
  await sql`savepoint unbilled_rebuild`.execute(ctx.db);
  try {
    await fn();
    await sql`release savepoint unbilled_rebuild`.execute(ctx.db);
    return true;
  } catch (error) {
    await sql`rollback to savepoint unbilled_rebuild`.execute(ctx.db);
    if (!dataFailure(error)) throw error;
    return false;
  }
}

/**
 * Rebuilds the clients (null: the company) in one statement; should their data break it, one client at a time,
 * so that only the broken clients fail. A failed client keeps no groups and stays on the log.
 */
async function rebuildEach(ctx: Ctx, clients: readonly number[] | null): Promise<number[]> {
  if (await attempt(ctx, () => repo.rebuild(ctx, clients))) return [];
  if (clients === null) await repo.drop(ctx, null);
  const each = clients ?? (await contractedClients(ctx, { from: '-infinity', to: 'infinity' }));
  const failed: number[] = [];
  for (const client of each) {
    if (!(await attempt(ctx, () => repo.rebuild(ctx, [client])))) failed.push(client);
  }
  // The failed rebuilds were rolled back to the groups of before: none is better than stale ones.
  if (failed.length > 0) await repo.drop(ctx, failed);
  await repo.markDirty(ctx, failed);
  return failed;
}

/**
 * Brings the company's unbilled-work groups up to every change committed before it started (docs/decisions/0070):
 * takes the clients marked dirty off the log and rebuilds them, or the whole company on its first use or after a
 * change of its time zone or currency. One catch-up per company at a time; a second waits and then finds the log
 * empty. Answers the clients whose data could not be computed.
 */
export async function catchUp(ctx: Ctx): Promise<{ failed: number[] }> {
  return asBigRead(ctx, async (tx) => {
    await repo.lockCompany(tx);
    const dirty = await repo.takeDirty(tx);
    const full = dirty.includes(null) || (await repo.builtAt(tx)) === null;
    if (!full && dirty.length === 0) return { failed: [] };
    const failed = await rebuildEach(tx, full ? null : (dirty as number[]));
    await repo.recordCatchUp(tx, full);
    return { failed };
  });
}

/**
 * The rollup's check: catches up, then compares every group with a recomputation from the entries. Answers the
 * differences (none when exact) and the clients that could not be computed.
 */
export async function checkUnbilledWork(ctx: Ctx) {
  const { failed } = await catchUp(ctx);
  // A client whose data cannot be computed fails the recomputation as well: it is reported, not compared.
  if (failed.length > 0) return { failed, differences: [] };
  return asBigRead(ctx, async (tx) => ({ failed, differences: await repo.differences(tx) }));
}

export const CATCH_UP_EVERY_MS = 60_000;
const CATCH_UP_BATCH = 20;

/**
 * The periodic task: catches up the companies with clients on the log, so the log stays short and a report's own
 * catch-up finds little to do. Crosses companies, as background work does; each is caught up as itself.
 */
export async function catchUpDue(db: Executor): Promise<Record<string, number>> {
  // tenant: deliberate SQL — system work over every company's log; each company is caught up as its own.
  const due = await sql<{ company_id: string }>`select distinct company_id from unbilled_work_dirty
    limit ${CATCH_UP_BATCH}`.execute(db);
  let caughtUp = 0;
  for (const row of due.rows) {
    const actor = await systemActor(db, row.company_id);
    if (!actor) continue;
    await catchUp({ ...actor, db, requestId: 'unbilled-work' });
    caughtUp += 1;
  }
  return { caught_up: caughtUp };
}
