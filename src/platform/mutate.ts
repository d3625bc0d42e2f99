import { inTransaction, type Ctx } from './context.ts';
import { notFound } from './errors.ts';

/** The record, or 404 NOT_FOUND naming what was asked for (absent, deleted, invisible and another tenant's all look alike). */
export function orNotFound<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw notFound(what);
  return value;
}

export interface Mutable<L, R> {
  /** The one word the 404 names (`Topic not found`). */
  what: string;
  /** Locks the live, visible row; undefined when there is none. */
  lock: (ctx: Ctx, id: number) => Promise<L | undefined>;
  /** Reads the record as the API answers it, inside the same transaction. */
  read: (ctx: Ctx, id: number) => Promise<R | undefined>;
}

/**
 * A write to one record in one transaction: lock it or answer 404, skip the work for an empty PATCH
 * body (the record is answered as it is), apply the change, and answer the record as it is now.
 */
export function mutate<L, R>(
  ctx: Ctx,
  target: Mutable<L, R>,
  id: number,
  body: object | undefined,
  change: (tx: Ctx, locked: L) => Promise<unknown>,
): Promise<R> {
  return inTransaction(ctx, async (tx) => {
    const locked = orNotFound(await target.lock(tx, id), target.what);
    if (body === undefined || Object.keys(body).length > 0) await change(tx, locked);
    return orNotFound(await target.read(tx, id), target.what);
  });
}

/** A delete (or another change answered without a body): lock it or answer 404, then apply the change. */
export function mutateQuietly<L>(
  ctx: Ctx,
  target: Pick<Mutable<L, unknown>, 'what' | 'lock'>,
  id: number,
  change: (tx: Ctx, locked: L) => Promise<unknown>,
): Promise<void> {
  return inTransaction(ctx, async (tx) => {
    await change(tx, orNotFound(await target.lock(tx, id), target.what));
  });
}
