import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { safeHtml } from '../../platform/html.ts';
import { firstRecord } from '../../platform/sql.ts';
import { tenantTable, type BaseQuery, type NewRow, type RowChanges } from '../../platform/tenant-table.ts';
import {
  NOTE_LIST_OPTIONS,
  type NoteListParams,
  type NoteRecord,
  type NoteTypeName as NoteType,
  type RelatedType,
} from './notes.schemas.ts';

/** A plain member's personal key sees (and reaches) only notes whose related record it sees. */
export const notes = tenantTable('notes', {
  alias: 'n',
  softDelete: true,
  lockColumns: ['related_type', 'related_id'],
});
type Query = BaseQuery<'notes', 'n'>;

/**
 * Every note body is written through these two, whoever writes it (POST/PATCH /notes, the `email` note of a client
 * e-mail): the one HTML policy runs on it, so what is stored is safe to render whatever the caller built.
 */
export const insertNote = (ctx: Ctx, values: NewRow<'notes'>): Promise<number> =>
  notes.insert(ctx, { ...values, comments: safeHtml(values.comments ?? '') });

export const updateNote = (ctx: Ctx, id: number, values: RowChanges<'notes'>): Promise<void> =>
  notes.update(ctx, id, values.comments === undefined ? values : { ...values, comments: safeHtml(values.comments) });

function project(query: Query) {
  return query.select([
    'n.id',
    'n.related_type',
    'n.related_id',
    'n.type',
    'n.is_pinned',
    'n.comments',
    'n.created_by_person_id',
    'n.created_at',
    'n.updated_at',
  ]);
}

function applyFilters(query: Query, filters: ListFilters<NoteListParams>) {
  let q = query;
  const related = splitList(filters.related_type) as RelatedType[] | undefined;
  if (related) q = q.where('n.related_type', 'in', related);
  if (filters.related_id !== undefined) q = q.where('n.related_id', '=', filters.related_id);
  const types = splitList(filters.type) as NoteType[] | undefined;
  if (types) q = q.where('n.type', 'in', types);
  if (filters.is_pinned !== undefined)
    q = q.where('n.is_pinned', '=', filters.is_pinned === 'true' || filters.is_pinned === '1');
  return q;
}

export function listNotes(ctx: Ctx, params: NoteListParams) {
  return listPage<NoteRecord, NoteListParams>(ctx, {
    listId: 'notes',
    params,
    options: NOTE_LIST_OPTIONS,
    idColumn: 'n.id',
    project,
    base: (filters) => applyFilters(notes.base(ctx), filters),
  });
}

export async function findNote(ctx: Ctx, id: number): Promise<NoteRecord | undefined> {
  return firstRecord<NoteRecord>(project(notes.base(ctx).where('n.id', '=', id)));
}
