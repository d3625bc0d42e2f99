import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, domainValidation, fail, invalidReference, notFound } from '../../platform/errors.ts';
import { mutate, orNotFound } from '../../platform/mutate.ts';
import { assertFresh, type Precondition } from '../../platform/preconditions.ts';
import { liveIds, lockLive } from '../../platform/references.ts';
import { invoiceLinks, isBilled, type InvoiceLink } from '../invoices/index.ts';
import { lockWorkTask } from '../tasks/index.ts';
import { lockEntriesToMove, moveEntries, type MovableEntry } from '../time-entries/index.ts';
import type { ReclaimCreateBody, ReclaimListParams, ReclaimRecord, ReclaimUpdateBody } from './reclaims.schemas.ts';
import * as repo from './reclaims.repository.ts';

export const listReclaims = (ctx: Ctx, params: ReclaimListParams) => repo.listReclaims(ctx, params);

export async function getReclaim(ctx: Ctx, id: number): Promise<ReclaimRecord> {
  return orNotFound(await repo.findReclaim(ctx, id), 'Reclaim');
}

/** 404 before the body is read: for the path's task (create) or reclaim (PATCH, undo). */
export async function assertTaskExists(ctx: Ctx, id: number): Promise<void> {
  if (!(await liveIds(ctx, 'tasks', [id])).has(id)) throw notFound('Task');
}
export async function assertReclaimExists(ctx: Ctx, id: number): Promise<void> {
  if (!(await liveIds(ctx, 'reclaims', [id])).has(id)) throw notFound('Reclaim');
}

const unique = (values: number[]) => [...new Set(values)];

/** The refusal for entries an invoice bills: finalized ones are locked, a draft's must leave the draft first. */
function billedRefusal(links: InvoiceLink[]): { reason: string; details: Record<string, unknown> } | undefined {
  if (links.length === 0) return undefined;
  const finalized = links.filter((link) => isBilled(link.status));
  const chosen = finalized.length > 0 ? finalized : links;
  return {
    reason: finalized.length > 0 ? 'period_locked' : 'in_draft_invoice',
    details: {
      time_entry_ids: unique(chosen.map((l) => l.time_entry_id)),
      invoice_ids: unique(chosen.map((l) => l.invoice_id)),
    },
  };
}

/** Locks both tasks in id order, so two opposite reclaims between the same tasks cannot deadlock. */
async function lockTasks(ctx: Ctx, sourceId: number, targetId: number): Promise<void> {
  for (const id of [sourceId, targetId].sort((a, b) => a - b)) {
    if (id === sourceId) {
      if (!(await lockLive(ctx, 'tasks', id))) throw notFound('Task');
    } else if (!(await lockWorkTask(ctx, id))) throw invalidReference('task', 'target_task_id', id);
  }
}

/** The entries to move: the named ones (each must be a live entry of the source, none billed), else all unbilled. */
async function entriesToMove(ctx: Ctx, sourceId: number, named: number[] | undefined): Promise<MovableEntry[]> {
  const entries = await lockEntriesToMove(ctx, named, sourceId);
  const links = await invoiceLinks(
    ctx,
    entries.map((e) => e.id),
  );
  if (named === undefined) {
    const billed = new Set(links.map((l) => l.time_entry_id));
    return entries.filter((e) => !billed.has(e.id));
  }
  const found = new Set(entries.map((e) => e.id));
  const missing = named.filter((id) => !found.has(id));
  if (missing.length)
    throw domainValidation('NOT_ON_SOURCE_TASK', `Not live time entries of task ${sourceId}: ${missing.join(', ')}`, {
      field: 'time_entry_ids',
      invalid_ids: missing,
    });
  const refusal = billedRefusal(links);
  if (refusal)
    fail('TIME_ENTRY_LOCKED', 'Time entries billed by an invoice cannot be reclaimed', {
      reason: refusal.reason,
      ...refusal.details,
    });
  return entries;
}

/**
 * POST /tasks/{id}/reclaim: moves time entries of the task onto another task in one transaction and records
 * the move, so that POST /reclaims/{id}/undo can move them back. Time entries fire no update events.
 */
export async function createReclaim(ctx: Ctx, sourceId: number, body: ReclaimCreateBody): Promise<ReclaimRecord> {
  if (body.target_task_id === sourceId)
    throw domainValidation('SAME_TASK', 'target_task_id must be another task than the source', {
      field: 'target_task_id',
    });
  return inTransaction(ctx, async (tx) => {
    await lockTasks(tx, sourceId, body.target_task_id);
    const entries = await entriesToMove(tx, sourceId, body.time_entry_ids);
    if (entries.length === 0)
      throw domainValidation('NOTHING_TO_RECLAIM', `Task ${sourceId} has no time entries that are not on an invoice`, {
        field: 'time_entry_ids',
      });
    const ids = entries.map((e) => e.id);
    await moveEntries(tx, ids, body.target_task_id);
    const id = await repo.insertReclaim(
      tx,
      {
        source_task_id: sourceId,
        target_task_id: body.target_task_id,
        total_seconds: entries.reduce((sum, e) => sum + e.seconds, 0),
        note: body.note ?? null,
        created_by: ctx.actor.personId,
        api_key_id: ctx.key.id,
      },
      ids,
    );
    return getReclaim(tx, id);
  });
}

const notUndoable = (reason: string, message: string, details: Record<string, unknown> = {}) =>
  new AppError('RECLAIM_NOT_UNDOABLE', message, { reason, ...details });

/**
 * Moves the reclaimed entries that are still live on the target task back to the source and sets undone_at.
 * Refused (409 RECLAIM_NOT_UNDOABLE, nothing written) when already undone, when the source task is gone, or
 * when an invoice bills one of the entries (period_locked when finalized, in_draft_invoice for a draft).
 */
export async function undoReclaim(ctx: Ctx, id: number, precondition: Precondition | undefined) {
  return inTransaction(ctx, async (tx) => {
    const reclaim = orNotFound(await repo.lockReclaim(tx, id), 'Reclaim');
    if (precondition) assertFresh(precondition, reclaim.updated_at);
    if (reclaim.undone_at !== null)
      throw notUndoable('already_undone', `Reclaim ${id} was undone already`, { undone_at: reclaim.undone_at });
    if (!(await lockLive(tx, 'tasks', reclaim.source_task_id)))
      throw notUndoable('source_task_gone', `The source task ${reclaim.source_task_id} no longer exists`, {
        source_task_id: reclaim.source_task_id,
      });
    const entries = await lockEntriesToMove(tx, await repo.entryIdsOf(tx, id));
    const movable = entries.filter((e) => e.live && e.task_id === reclaim.target_task_id).map((e) => e.id);
    const refusal = billedRefusal(await invoiceLinks(tx, movable));
    if (refusal)
      throw notUndoable(refusal.reason, 'Time entries of this reclaim are billed by an invoice', refusal.details);
    await moveEntries(tx, movable, reclaim.source_task_id);
    const moved = new Set(movable);
    await repo.markUndone(
      tx,
      id,
      entries.filter((e) => !moved.has(e.id)).map((e) => e.id),
    );
    return getReclaim(tx, id);
  });
}

const target = { what: 'Reclaim', lock: repo.lockReclaim, read: repo.findReclaim };

/** PATCH reaches only `note`; `undone_at` in any form is 409 RECLAIM_UNDO_NOT_SUPPORTED (undo has its own route). */
export function updateReclaim(
  ctx: Ctx,
  id: number,
  body: ReclaimUpdateBody,
  precondition: Precondition | undefined,
): Promise<ReclaimRecord> {
  return mutate(ctx, target, id, precondition ? undefined : body, async (tx, current) => {
    if (body.undone_at !== undefined)
      fail('RECLAIM_UNDO_NOT_SUPPORTED', 'undone_at cannot be written; undo a reclaim with POST /reclaims/{id}/undo', {
        field: 'undone_at',
        undo_path: `/reclaims/${id}/undo`,
      });
    if (precondition) assertFresh(precondition, current.updated_at);
    if (body.note !== undefined) await repo.reclaims.update(tx, id, { note: body.note });
  });
}
