import { Type, type Static } from 'typebox';
import { Id, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

/** At most this many time entries per reclaim (one request, one transaction). */
export const MAX_ENTRIES = 500;

export const Reclaim = Type.Object(
  {
    id: Type.Integer(),
    source_task_id: Type.Integer({ description: 'The task the time entries were moved from' }),
    target_task_id: Type.Integer({ description: 'The task the time entries were moved to' }),
    time_entry_ids: Type.Array(Type.Integer(), { description: 'The time entries the reclaim moved, by id' }),
    entry_count: Type.Integer({ description: 'How many time entries it moved' }),
    total_seconds: Type.Integer({ description: 'Their duration in seconds at the time of the move' }),
    note: Nullable(Type.String({ description: 'Why the time was reclaimed' })),
    created_by: Nullable(Type.Integer({ description: 'Person id the creating key acted for' })),
    undone_at: Nullable(Timestamp('When POST /reclaims/{id}/undo moved the entries back; null while in force')),
    skipped_entry_ids: Nullable(
      Type.Array(Type.Integer(), {
        description:
          'Set by undo: entries it left where they were (deleted since, or moved on from the target task); null until undone',
      }),
    ),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Reclaim' },
);
export type ReclaimRecord = Static<typeof Reclaim>;

const Note = Type.String({ maxLength: 1000, description: 'Why the time is reclaimed, up to 1000 characters' });

export const ReclaimCreate = Type.Object(
  {
    target_task_id: Id('The task the time entries move to (a live task of the company, not the source)'),
    time_entry_ids: Type.Optional(
      Type.Array(Id('time entry id'), {
        minItems: 1,
        maxItems: MAX_ENTRIES,
        uniqueItems: true,
        description: `Entries of the source task to move (1-${MAX_ENTRIES}); default: all its entries not on an invoice`,
      }),
    ),
    note: Type.Optional(Note),
  },
  { additionalProperties: false, title: 'ReclaimCreate' },
);
export type ReclaimCreateBody = Static<typeof ReclaimCreate>;

/**
 * PATCH reaches only `note`. `undone_at` is accepted by the schema only so that the service can answer it with
 * 409 RECLAIM_UNDO_NOT_SUPPORTED (undo is POST /reclaims/{id}/undo); anything else is 400.
 */
export const ReclaimUpdate = Type.Object(
  {
    note: Type.Optional(Nullable(Note)),
    undone_at: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 64,
          description: 'Not writable: any value gives 409 RECLAIM_UNDO_NOT_SUPPORTED; use POST /reclaims/{id}/undo',
        }),
      ),
    ),
  },
  { additionalProperties: false, title: 'ReclaimUpdate' },
);
export type ReclaimUpdateBody = Static<typeof ReclaimUpdate>;

export const RECLAIM_LIST_OPTIONS = {
  sortable: { id: 'r.id', created_at: 'r.created_at', updated_at: 'r.updated_at' },
  defaultSort: 'id',
  // Reclaims are not in the spec's list of cursor-mode resources.
  cursor: false,
};
export const RECLAIM_FILTERS = ['task_id', 'source_task_id', 'target_task_id', 'time_entry_id', 'undone'] as const;
export const ReclaimListQuery = listQuery(
  {
    task_id: Type.Optional(Id('Reclaims from or to this task')),
    source_task_id: Type.Optional(Id('Reclaims from this task')),
    target_task_id: Type.Optional(Id('Reclaims to this task')),
    time_entry_id: Type.Optional(Id('Reclaims that moved this time entry')),
    undone: Type.Optional(Type.Boolean({ description: 'true: only undone reclaims; false: only those in force' })),
  },
  RECLAIM_LIST_OPTIONS,
);
export type ReclaimListParams = Static<typeof ReclaimListQuery>;
