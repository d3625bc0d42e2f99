import { Type, type Static } from 'typebox';
import { Id, Nullable, Timestamp, Literals } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

export const DIGITIZATION_STATUSES = ['queued', 'running', 'finished', 'failed'] as const;

const Amount = Type.Object({
  value: Type.String({ description: 'Exact decimal, e.g. "1234.50"' }),
  currency: Nullable(Type.String({ description: 'ISO 4217 code when a symbol or code was next to it' })),
});

const Extraction = Type.Object(
  {
    extractor: Type.String({ description: 'Which rules produced this result' }),
    source: Type.String({ description: 'What was read: text_content' }),
    characters: Type.Integer(),
    words: Type.Integer(),
    lines: Type.Integer(),
    dates: Type.Array(Type.String({ format: 'date' })),
    amounts: Type.Array(Amount),
    emails: Type.Array(Type.String()),
    references: Type.Array(Type.String({ description: 'Invoice, order or reference numbers' })),
  },
  { title: 'DigitizationResult' },
);

export const Digitization = Type.Object(
  {
    id: Type.Integer(),
    document_id: Type.Integer(),
    job_id: Type.Integer({ description: 'The background job doing it (GET /jobs/{id})' }),
    status: Literals(DIGITIZATION_STATUSES, { description: "The job's status" }),
    result: Nullable(Extraction),
    error: Nullable(Type.String({ description: 'Why it failed (e.g. nothing readable in the document)' })),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Digitization' },
);
export type DigitizationRecord = Static<typeof Digitization>;

export const DigitizationCreate = Type.Object(
  { document_id: Id('Document to digitize') },
  { additionalProperties: false, title: 'DigitizationCreate' },
);
export type DigitizationCreateBody = Static<typeof DigitizationCreate>;

export const DIGITIZATION_LIST_OPTIONS = {
  sortable: { id: 'dg.id', created_at: 'dg.created_at' },
  defaultSort: 'id',
};
export const DIGITIZATION_FILTERS = ['document_id'] as const;
export const DigitizationListQuery = listQuery(
  { document_id: Type.Optional(Id('Digitizations of this document')) },
  DIGITIZATION_LIST_OPTIONS,
);
export type DigitizationListParams = Static<typeof DigitizationListQuery>;
