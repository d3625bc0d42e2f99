import type { AttachmentListParams } from './attachments.schemas.ts';
import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { likeContains, nextStamp, firstRecord } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { ATTACHMENT_LIST_OPTIONS, type AttachmentRecord } from './attachments.schemas.ts';

/** A plain member's personal key sees the files of the live tasks and notes it sees (the `visibility` its module declares). */
export const attachments = tenantTable('attachments', { alias: 'a', softDelete: true });
type Query = BaseQuery<'attachments', 'a'>;

const COLUMNS = [
  'a.id',
  'a.related_type',
  'a.related_id',
  'a.file_name',
  'a.content_type',
  'a.size',
  'a.sha256',
  'a.status',
  'a.created_by_person_id',
  'a.processed_at',
  'a.created_at',
  'a.updated_at',
] as const;

function project(query: Query) {
  return query.select(COLUMNS);
}

function applyFilters(query: Query, filters: ListFilters<AttachmentListParams>) {
  let q = query;
  if (filters.related_type !== undefined) q = q.where('a.related_type', '=', filters.related_type);
  if (filters.related_id !== undefined) q = q.where('a.related_id', '=', filters.related_id);
  if (filters.q !== undefined) q = q.where('a.file_name', 'ilike', likeContains(filters.q));
  return q;
}

export function listAttachments(ctx: Ctx, params: AttachmentListParams) {
  return listPage<AttachmentRecord, AttachmentListParams>(ctx, {
    listId: 'attachments',
    params,
    options: ATTACHMENT_LIST_OPTIONS,
    idColumn: 'a.id',
    project,
    base: (filters) => applyFilters(attachments.base(ctx), filters),
  });
}

export async function findAttachment(ctx: Ctx, id: number): Promise<AttachmentRecord | undefined> {
  return firstRecord<AttachmentRecord>(project(attachments.base(ctx).where('a.id', '=', id)));
}

/** The row the verification job reads: company-wide (the job checks bytes, not rights), deleted ones included. */
export function findForVerification(ctx: Ctx, id: number) {
  return scoped
    .select(ctx, 'attachments', 'a')
    .select(['a.id', 'a.file_name', 'a.size', 'a.sha256', 'a.status'])
    .where('a.id', '=', id)
    .executeTakeFirst();
}

/** Ends processing; only a row still processing changes (a job run twice settles it once). */
export async function settle(ctx: Ctx, id: number, status: 'ready' | 'failed', reason: string | null): Promise<void> {
  await scoped
    .update(ctx, 'attachments')
    .set({ status, failure_reason: reason, processed_at: sql<string>`now()`, updated_at: nextStamp() })
    .where('id', '=', id)
    .where('status', '=', 'processing')
    .execute();
}

/**
 * Of `keys` (blob keys, i.e. SHA-256s), those an attachment still names: a live one, or one deleted after
 * `deletedAfter` (a recent delete keeps its bytes through the grace period).
 */
export async function referencedBlobs(db: Executor, keys: readonly string[], deletedAfter: Date): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  // tenant: deliberate SQL. Blobs are content-addressed across companies (the same bytes are stored once), so
  // whether any company still needs them is a question about every company; nothing here reaches a response.
  const rows = await db
    .selectFrom('attachments')
    .select('sha256')
    .distinct()
    .where('sha256', 'in', [...keys])
    .where((eb) => eb.or([eb('deleted_at', 'is', null), eb('deleted_at', '>', deletedAfter.toISOString())]))
    .execute();
  return new Set(rows.map((r) => r.sha256));
}
