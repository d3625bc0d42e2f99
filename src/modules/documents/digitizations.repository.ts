import type { DigitizationListParams } from './digitizations.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { listPage } from '../../platform/lists.ts';
import { tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import { DIGITIZATION_LIST_OPTIONS, type DigitizationRecord } from './digitizations.schemas.ts';
import { firstRecord } from '../../platform/sql.ts';
import { jobStates } from '../jobs/index.ts';

/** Digitizations follow their document's client's visibility (the `visibility` its module declares). */
export const digitizations = tenantTable('digitizations', { alias: 'dg' });
type Query = BaseQuery<'digitizations', 'dg'>;

/** Status and error are the job's: one source of truth, also right when the job stopped on an internal error. */
const project = (ctx: Ctx, query: Query) =>
  query
    .innerJoin(jobStates(ctx), (join) =>
      join.onRef('j.company_id', '=', 'dg.company_id').onRef('j.id', '=', 'dg.job_id'),
    )
    .select([
      'dg.id',
      'dg.document_id',
      'dg.job_id',
      'j.status',
      'dg.result',
      'j.error',
      'dg.created_at',
      'dg.updated_at',
    ])
    // result is a json column the digitization job writes only as an Extraction (the read type is JSON's).
    .$narrowType<{ result: DigitizationRecord['result'] }>();

export function listDigitizations(ctx: Ctx, params: DigitizationListParams) {
  return listPage<DigitizationRecord, DigitizationListParams>(ctx, {
    listId: 'digitizations',
    params,
    options: DIGITIZATION_LIST_OPTIONS,
    idColumn: 'dg.id',
    project: (query) => project(ctx, query),
    base: (filters) => {
      const q = digitizations.base(ctx);
      return filters.document_id === undefined ? q : q.where('dg.document_id', '=', filters.document_id);
    },
  });
}

export const findDigitization = (ctx: Ctx, id: number) =>
  firstRecord<DigitizationRecord>(project(ctx, digitizations.base(ctx).where('dg.id', '=', id)));

/** The digitization of a job and the document it reads (a document deleted meanwhile is reported, not crashed on). */
export const digitizationSource = (ctx: Ctx, jobId: number) =>
  digitizations
    .base(ctx)
    .innerJoin('documents as d', (join) =>
      join.onRef('d.company_id', '=', 'dg.company_id').onRef('d.id', '=', 'dg.document_id'),
    )
    .select(['dg.id', 'd.text_content', 'd.attachment_id', 'd.deleted_at'])
    .where('dg.job_id', '=', jobId)
    .executeTakeFirst();
