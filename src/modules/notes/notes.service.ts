import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { invalidReference } from '../../platform/errors.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { lockLive } from '../../platform/references.ts';
import {
  NOTE_PARENTS,
  type NoteCreateBody,
  type NoteListParams,
  type NoteRecord,
  type NoteUpdateBody,
  type RelatedType,
} from './notes.schemas.ts';
import * as repo from './notes.repository.ts';

type Locked = { related_type: RelatedType; related_id: number };

/**
 * The related record must be live in the company and, for a restricted key, visible to it (an invisible
 * client answers the same INVALID_CLIENT as a missing one). It is locked so it cannot go while the note is written.
 */
async function checkRelated(ctx: Ctx, type: RelatedType, id: number): Promise<void> {
  const { table, entity } = NOTE_PARENTS[type];
  if (!(await lockLive(ctx, table, id))) throw invalidReference(entity, 'related_id', id);
}

const target = {
  what: 'Note',
  lock: repo.notes.lock as (ctx: Ctx, id: number) => Promise<Locked | undefined>,
  read: repo.findNote,
};

export const listNotes = (ctx: Ctx, params: NoteListParams) => repo.listNotes(ctx, params);

export async function getNote(ctx: Ctx, id: number): Promise<NoteRecord> {
  return orNotFound(await repo.findNote(ctx, id), 'Note');
}

export async function createNote(ctx: Ctx, body: NoteCreateBody): Promise<NoteRecord> {
  return inTransaction(ctx, async (tx) => {
    await checkRelated(tx, body.related_type, body.related_id);
    const id = await repo.insertNote(tx, {
      related_type: body.related_type,
      related_id: body.related_id,
      type: body.type ?? 'info',
      is_pinned: body.is_pinned ?? false,
      comments: body.comments ?? '',
      created_by_person_id: tx.actor.personId,
    });
    return getNote(tx, id);
  });
}

/** Moving a note to another record checks the new pair (type and id together) as a create would. */
export const updateNote = (ctx: Ctx, id: number, body: NoteUpdateBody) =>
  mutate(ctx, target, id, body, async (tx, locked) => {
    if (body.related_type !== undefined || body.related_id !== undefined)
      await checkRelated(tx, body.related_type ?? locked.related_type, body.related_id ?? locked.related_id);
    await repo.updateNote(tx, id, body);
  });

export const deleteNote = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, (tx) => repo.notes.softDelete(tx, id));
