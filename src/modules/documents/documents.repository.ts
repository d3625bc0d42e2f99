import type { DocumentListParams } from './documents.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { listPage } from '../../platform/lists.ts';
import { likeContains, firstRecord } from '../../platform/sql.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { DOCUMENT_LIST_OPTIONS, type DocumentRecord } from './documents.schemas.ts';

/** Documents follow their client's visibility, like folders. */
export const documents = tenantTable('documents', {
  alias: 'd',
  softDelete: true,
  lockColumns: ['client_id'],
});
type Query = BaseQuery<'documents', 'd'>;

const project = (query: Query) =>
  query.select([
    'd.id',
    'd.client_id',
    'd.folder_id',
    'd.name',
    'd.attachment_id',
    'd.text_content',
    'd.created_at',
    'd.updated_at',
  ]);

export function listDocuments(ctx: Ctx, params: DocumentListParams) {
  return listPage<DocumentRecord, DocumentListParams>(ctx, {
    listId: 'documents',
    params,
    options: DOCUMENT_LIST_OPTIONS,
    idColumn: 'd.id',
    project,
    base: (filters) => {
      let q = documents.base(ctx);
      if (filters.client_id !== undefined) q = q.where('d.client_id', '=', filters.client_id);
      if (filters.folder_id !== undefined) q = q.where('d.folder_id', '=', filters.folder_id);
      if (filters.q !== undefined) q = q.where('d.name', 'ilike', likeContains(filters.q));
      return q;
    },
  });
}

export const findDocument = (ctx: Ctx, id: number) =>
  firstRecord<DocumentRecord>(project(documents.base(ctx).where('d.id', '=', id)));
