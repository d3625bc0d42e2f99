import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Ctx } from './context.ts';

/**
 * The report statement time-out (SVC_REPORT_STATEMENT_TIMEOUT, which each connection carries as
 * svc.report_statement_timeout) in place of the request one, for the rest of the transaction (decision 0046). A
 * connection without it keeps its own time-out.
 */
const REPORT_TIMEOUT = sql`set_config('statement_timeout',
  coalesce(nullif(current_setting('svc.report_statement_timeout', true), ''), current_setting('statement_timeout')),
  true)`;

/**
 * Settings for one big read, local to its transaction: no JIT (compiling these plans cost up to a second and saved
 * nothing), a plan made for the window at hand rather than a prepared statement's generic one, room to hash the
 * groups in memory instead of sorting them on disk, and the report time-out.
 */
const BIG_READ = sql`select set_config('jit', 'off', true), set_config('plan_cache_mode', 'force_custom_plan', true),
  set_config('work_mem', '64MB', true), ${REPORT_TIMEOUT}`;

/**
 * Runs fn in a transaction of its own with the settings. Inside a request's transaction (the KPI refresh) it runs
 * in a savepoint instead, so that a failing query does not abort the request and a retry can still run; the
 * settings then hold until that request ends, which only affects its later reads.
 */
async function withSettings<T>(ctx: Ctx, settings: RawBuilder<unknown>, fn: (tx: Ctx) => Promise<T>): Promise<T> {
  if (!ctx.db.isTransaction)
    return (ctx.db as Db).transaction().execute(async (db) => {
      await settings.execute(db);
      return fn({ ...ctx, db });
    });
  await sql`savepoint big_read`.execute(ctx.db);
  try {
    await settings.execute(ctx.db);
    const result = await fn(ctx);
    await sql`release savepoint big_read`.execute(ctx.db);
    return result;
  } catch (error) {
    await sql`rollback to savepoint big_read`.execute(ctx.db);
    throw error;
  }
}

/** A report's reads (KPI figures, time summary, BI): the report statement time-out instead of the request one. */
export const asReport = <T>(ctx: Ctx, fn: (tx: Ctx) => Promise<T>) =>
  withSettings(ctx, sql`select ${REPORT_TIMEOUT}`, fn);

/** The largest reads (the missed-billing pass over every contracted client): the report time-out and tuning. */
export const asBigRead = <T>(ctx: Ctx, fn: (tx: Ctx) => Promise<T>) => withSettings(ctx, BIG_READ, fn);
