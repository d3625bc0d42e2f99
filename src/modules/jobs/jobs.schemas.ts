import { Type, type Static } from 'typebox';
import { Literals, Nullable, Timestamp } from '../../platform/fields.ts';

export const JOB_STATUSES = ['queued', 'running', 'finished', 'failed'] as const;
const Ids = (description: string) => Nullable(Type.Array(Type.Integer(), { description }));

export const Job = Type.Object(
  {
    id: Type.Integer(),
    type: Type.String({ description: 'What the job does, e.g. task_bulk_action' }),
    status: Literals(JOB_STATUSES, { description: 'queued, running, finished or failed' }),
    total_count: Nullable(Type.Integer({ description: 'Records the job works on; null until it starts' })),
    processed_count: Type.Integer({ description: 'Records handled so far, failed ones included' }),
    failed_count: Nullable(Type.Integer({ description: 'Records that could not be changed; null means not recorded' })),
    failed_client_ids: Ids('Clients that failed; null means not recorded'),
    skipped_count: Nullable(
      Type.Integer({
        description: 'null means not recorded, never "none skipped"; filled only by the project-workflow apply job',
      }),
    ),
    skipped_client_ids: Ids('null means not recorded; filled only by the project-workflow apply job'),
    result: Nullable(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'What a finished job leaves behind (e.g. the reference-data sync summary); null when it keeps none',
      }),
    ),
    created_at: Timestamp('When the job was queued (UTC)'),
    started_at: Nullable(Timestamp('When it started running')),
    finished_at: Nullable(Timestamp('When it finished or failed')),
    error: Nullable(
      Type.String({
        description: 'Why the job failed, or why its last attempt failed while it waits to retry; else null',
      }),
    ),
    attempts: Type.Integer({ description: 'How many times the job has been started (retries included)' }),
    next_attempt_at: Nullable(Timestamp('When a queued job waiting to retry is due; null otherwise')),
  },
  { title: 'Job' },
);
export type JobRecord = Static<typeof Job>;
