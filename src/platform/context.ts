import { sql, type Compilable, type RawBuilder } from 'kysely';
import type { Db, Executor } from '../db/database.ts';
import type { DB } from '../db/schema.ts';

export interface CompanyInfo {
  id: string;
  name: string;
  timezone: string;
  currency: string;
  subscription_status: 'active' | 'lapsed';
  plan: 'pro' | 'basic';
  features: Record<string, unknown>;
}

/**
 * The request's credential. `kind` 'session' is a member signed in to the web application (a cookie): it has no
 * key id, acts as its member like a personal key, and carries its session and account.
 */
export interface KeyInfo {
  id: number | null;
  kind: 'integration' | 'personal' | 'session';
  scopes: string[];
  personId: number | null;
  session?: { id: number; accountId: number };
}

/** Who is acting. A personal key acts as its person with that member's role; integration keys see the company. */
export interface Actor {
  personId: number | null;
  role: 'member' | 'admin' | 'owner' | null;
  /** true when reads and writes are limited to what the person may see (personal key of a plain member). */
  restricted: boolean;
}

/** The first argument of every service function. The tenant never comes from a request body. */
export interface Ctx {
  db: Executor;
  companyId: string;
  company: CompanyInfo;
  key: KeyInfo;
  actor: Actor;
  requestId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: Ctx;
  }
}

type SideTable = keyof DB & string;
type SideRow = Record<string, unknown>;

/**
 * By the open transaction: work queued by afterCommit with the pool to run it on, and side records (outbox
 * events, the audit row) held back to be written by the transaction's last statement.
 */
const pending = new WeakMap<
  object,
  { db: Db; tasks: Array<(db: Db) => unknown>; inserts: Map<SideTable, SideRow[]> }
>();

/** Registers a transaction whose commit afterCommit's work waits for (inTransaction and the request's own). */
export function trackCommit(tx: Executor, db: Db): void {
  pending.set(tx, { db, tasks: [], inserts: new Map() });
}

/**
 * Writes a write's side records (outbox events, the audit row). In a transaction the service opened they are
 * held back until its last statement (flushSideRecords), so they cost no round trip of their own, and keep
 * their order; in any other they are inserted now.
 */
export async function writeSideRecords(tx: Executor, table: SideTable, rows: readonly SideRow[]): Promise<void> {
  if (rows.length === 0) return;
  const entry = pending.get(tx);
  if (!entry) {
    await insertSide(tx, table, [...rows]).execute();
    return;
  }
  const queued = entry.inserts.get(table);
  if (queued) queued.push(...rows);
  else entry.inserts.set(table, [...rows]);
}

// Kysely cannot type the values of a table chosen at run time; the side tables' rows are built by their writers.
const insertSide = (tx: Executor, table: SideTable, rows: SideRow[]) => tx.insertInto(table).values(rows as never);

/** Rows per table in one insert: well under PostgreSQL's 65,535 parameters for any side table's width. */
const ROWS_PER_INSERT = 1000;

/**
 * Writes the held-back rows, in order, and returns main's rows: the last ROWS_PER_INSERT of each table go in one
 * statement with `main` as its own query (one data-modifying CTE per table); any before them (a transaction
 * that recorded thousands of events) in plain inserts first. Without rows and without main it sends nothing.
 */
export async function flushSideRecords<R = unknown>(tx: Executor, main?: Compilable & object): Promise<R[]> {
  const entry = pending.get(tx);
  const inserts = entry ? [...entry.inserts] : [];
  entry?.inserts.clear();
  const insert = (table: SideTable, rows: SideRow[]) => insertSide(tx, table, rows);
  const last: Array<[SideTable, SideRow[]]> = [];
  for (const [table, rows] of inserts) {
    const tail = Math.max(0, rows.length - ROWS_PER_INSERT);
    for (let at = 0; at < tail; at += ROWS_PER_INSERT)
      await insert(table, rows.slice(at, Math.min(at + ROWS_PER_INSERT, tail))).execute();
    last.push([table, rows.slice(tail)]);
  }
  if (last.length === 0) return main ? ((await sql<R>`${main}`.execute(tx)).rows as R[]) : [];
  const ctes: RawBuilder<unknown>[] = last.map(
    ([table, rows], i) => sql`${sql.id(`side_${i}`)} as (${insert(table, rows)})`,
  );
  return (await sql<R>`with ${sql.join(ctes)} ${main ?? sql`select 1`}`.execute(tx)).rows;
}

function runLater(db: Db, tasks: Array<(db: Db) => unknown>, onError: (error: unknown) => void): void {
  setImmediate(() => {
    for (const task of tasks) void Promise.resolve(db).then(task).catch(onError);
  });
}

/**
 * Ends what afterCommit queued for tx: after a commit the work starts on the pool once the current I/O is
 * done (a response goes out first); after a rollback it is dropped.
 */
export function settleCommit(tx: Executor, committed: boolean, onError: (error: unknown) => void = () => {}): void {
  const entry = pending.get(tx);
  pending.delete(tx);
  if (committed && entry && entry.tasks.length > 0) runLater(entry.db, entry.tasks, onError);
}

/**
 * Runs fn once the write ctx belongs to has committed, with the pool (ctx.db is a finished transaction by
 * then). Work kicked off by a write, such as starting the job it queued, must not see the write uncommitted.
 */
export function afterCommit(ctx: Ctx, fn: (db: Db) => unknown): void {
  const entry = pending.get(ctx.db);
  if (entry) entry.tasks.push(fn);
  // Outside any transaction what was written is committed already.
  else if (!ctx.db.isTransaction) runLater(ctx.db as Db, [fn], () => {});
  else throw new Error('afterCommit needs a transaction opened by inTransaction or by the request');
}

/**
 * Runs fn in one transaction: one request, one transaction, nothing half-written. A v3 write already runs
 * in the request's transaction (src/platform/request-transaction.ts), which fn then joins.
 */
export async function inTransaction<T>(ctx: Ctx, fn: (tx: Ctx) => Promise<T>): Promise<T> {
  if (ctx.db.isTransaction) return fn(ctx);
  const db = ctx.db as Db;
  let opened: Executor | undefined;
  try {
    const result = await db.transaction().execute(async (tx) => {
      opened = tx;
      trackCommit(tx, db);
      const value = await fn({ ...ctx, db: tx });
      await flushSideRecords(tx);
      return value;
    });
    settleCommit(opened!, true);
    return result;
  } catch (error) {
    if (opened) settleCommit(opened, false);
    throw error;
  }
}
