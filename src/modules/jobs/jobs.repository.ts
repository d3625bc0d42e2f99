import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Ctx } from '../../platform/context.ts';
import type { ClaimedJob } from '../../platform/modules.ts';
import { firstRecord, isoz, nextStamp, nowStamp } from '../../platform/sql.ts';
import { scoped, type RowUpdate } from '../../platform/tenant-table.ts';
import { companyJson, companyRefusal } from '../../platform/system-actor.ts';
import { sessionScopes } from '../../platform/scopes.ts';
import { keyById, keyUnusable, type KeyUnusable } from '../../platform/auth.ts';
import type { JobRecord } from './jobs.schemas.ts';

const COLUMNS = [
  'id',
  'type',
  'status',
  'total_count',
  'processed_count',
  'failed_count',
  'failed_client_ids',
  'skipped_count',
  'skipped_client_ids',
  'created_at',
  'started_at',
  'finished_at',
  'error',
  'attempts',
  'result',
] as const;

/** A running job whose heartbeat is older than this lost its process; any runner may take it over. */
export const STALE_AFTER_SECONDS = 60;

/** Thrown when a job's row no longer shows this runner's progress: another runner took it over. */
export class LostClaim extends Error {}

/** A plain member's personal key sees the jobs it started (a member's session: its member's); others the company's. */
export async function findJob(ctx: Ctx, id: number): Promise<JobRecord | undefined> {
  let query = scoped
    .select(ctx, 'jobs', 'j')
    .select(COLUMNS.map((c) => `j.${c}` as const))
    .select(sql<string | null>`case when j.status = 'queued' then ${isoz('j.run_after')} end`.as('next_attempt_at'))
    .where('j.id', '=', id);
  if (ctx.actor.restricted)
    query =
      ctx.key.kind === 'session'
        ? query.where('j.api_key_id', 'is', null).where('j.session_person_id', '=', ctx.key.personId)
        : query.where('j.api_key_id', '=', ctx.key.id);
  return firstRecord<JobRecord>(query);
}

export async function insertJob(ctx: Ctx, type: string, params: object): Promise<number> {
  const row = await scoped
    .insert(ctx, 'jobs', [
      {
        type,
        params: JSON.stringify(params),
        api_key_id: ctx.key.id,
        session_person_id: ctx.key.kind === 'session' ? ctx.key.personId : null,
        total_count: null,
        failed_count: null,
        failed_client_ids: null,
        skipped_count: null,
        skipped_client_ids: null,
        error: null,
        started_at: null,
        finished_at: null,
      },
    ])
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const CLAIMED = sql.raw(
  'j.company_id, j.id, j.type, j.params, j.api_key_id, j.session_person_id, j.processed_count, j.failed_count, j.target_ids, j.attempts',
);
const CLAIM_SET = sql`status = 'running', started_at = coalesce(j.started_at, ${nowStamp()}), heartbeat_at = ${nowStamp()}, updated_at = ${nextStamp('j.updated_at')}, attempts = j.attempts + 1, run_after = null`;
/** A queued job waiting to retry is not due before its run_after. */
const due = (column: string) => sql`(${sql.ref(column)} is null or ${sql.ref(column)} <= clock_timestamp())`;

/**
 * Claims the oldest job of these types that is queued, or running with a stale heartbeat (its process
 * died). SKIP LOCKED lets concurrent runners pass over a row another is claiming; the fresh heartbeat
 * then keeps it theirs. Cross-tenant by design: the runner serves every company.
 */
export async function claimNext(db: Executor, types: readonly string[]): Promise<ClaimedJob | undefined> {
  if (types.length === 0) return undefined;
  const result = await sql<ClaimedJob>`update jobs j set ${CLAIM_SET}
    from (select company_id, id from jobs
      where type = any(${[...types]}::text[]) and ((status = 'queued' and ${due('run_after')}) or (status = 'running'
        and (heartbeat_at is null or heartbeat_at < clock_timestamp() - make_interval(secs => ${STALE_AFTER_SECONDS}))))
      order by created_at, id limit 1 for update skip locked) pick
    where j.company_id = pick.company_id and j.id = pick.id
    returning ${CLAIMED}`.execute(db);
  return result.rows[0];
}

/** Claims one job that is still queued (the in-process start right after the request); undefined if taken. */
export async function claimQueued(db: Executor, companyId: string, id: number): Promise<ClaimedJob | undefined> {
  // tenant: deliberate SQL — the job runner serves every company; the caller names the company of the job it started.
  const result = await sql<ClaimedJob>`update jobs j set ${CLAIM_SET}
    where j.company_id = ${companyId} and j.id = ${id} and j.status = 'queued' and ${due('j.run_after')} returning ${CLAIMED}`.execute(
    db,
  );
  return result.rows[0];
}

const update = (ctx: Ctx, id: number, values: RowUpdate<'jobs'>) =>
  scoped
    .update(ctx, 'jobs')
    .set({ ...values, updated_at: nextStamp() })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .executeTakeFirst();

/** Fixes the job's selection at its first start (total, target ids, counts from zero). */
export async function setTargets(ctx: Ctx, id: number, ids: number[]): Promise<void> {
  const result = await update(ctx, id, {
    total_count: ids.length,
    target_ids: ids,
    processed_count: 0,
    failed_count: 0,
    heartbeat_at: nowStamp(),
  });
  if (result.numUpdatedRows === 0n) throw new LostClaim(`job ${id} is no longer running here`);
}

/**
 * Moves progress on from `from` and beats the heart. Run in the chunk's transaction, so a chunk and its
 * count commit together; the `from` guard makes a runner that lost the job to another fail (and roll back).
 */
export async function advance(ctx: Ctx, id: number, from: number, processed: number, failed: number): Promise<void> {
  const result = await scoped
    .update(ctx, 'jobs')
    .set({ processed_count: processed, failed_count: failed, heartbeat_at: nowStamp(), updated_at: nextStamp() })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .where('processed_count', '=', from)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new LostClaim(`job ${id} progressed elsewhere`);
}

export const heartbeat = (ctx: Ctx, id: number) => update(ctx, id, { heartbeat_at: nowStamp() });

/** Hands a job back to the queue (this process is stopping); its progress is kept for whoever resumes it. */
export const release = (ctx: Ctx, id: number) => update(ctx, id, { status: 'queued', heartbeat_at: null });

/** Puts a job back in the queue, not to be claimed before delayMs from now, noting why this attempt failed. */
export const retryLater = (ctx: Ctx, id: number, error: string, delayMs: number) =>
  update(ctx, id, {
    status: 'queued',
    error,
    heartbeat_at: null,
    run_after: sql`date_trunc('milliseconds', clock_timestamp()) + make_interval(secs => ${delayMs / 1000})`,
  });

export const markDone = (ctx: Ctx, id: number, status: 'finished' | 'failed', error: string | null = null) =>
  update(ctx, id, {
    status,
    error,
    heartbeat_at: null,
    finished_at: sql`date_trunc('milliseconds', clock_timestamp())`,
  });

/**
 * Adds a chunk's skipped and failed clients to the job row (the project-workflow apply job's record), in the
 * chunk's transaction; the counts of skipped clients add up, the failed ones are counted by the progress.
 */
export async function recordClientOutcome(
  ctx: Ctx,
  id: number,
  outcome: { skipped: number[]; failed: number[] },
): Promise<void> {
  await scoped
    .update(ctx, 'jobs')
    .set({
      skipped_count: sql<number>`coalesce(skipped_count, 0) + ${outcome.skipped.length}`,
      skipped_client_ids: sql<number[]>`coalesce(skipped_client_ids, '{}') || ${outcome.skipped}::int[]`,
      failed_client_ids: sql<number[]>`coalesce(failed_client_ids, '{}') || ${outcome.failed}::int[]`,
    })
    .where('id', '=', id)
    .execute();
}

export type JobActor = Omit<Ctx, 'db' | 'requestId'> & {
  /** Why the key or its company may no longer run the job (the request pipeline's checks), or null. */
  refusal: string | null;
};

const KEY_REFUSALS: Record<KeyUnusable, string> = {
  revoked: 'the API key that started this job has been revoked',
  expired: 'the API key that started this job has expired',
  grace_over: 'the API key that started this job was rotated and its grace period has ended',
  member_inactive: 'the member the API key that started this job acts for is not active',
};

/**
 * A job's company and key as a context to run it in: it acts with the rights of the key that started it,
 * and only while that key could still make the request (the pipeline's own usability rule) and its
 * company passes the plan and subscription gates.
 */
export async function jobActor(db: Executor, companyId: string, apiKeyId: number): Promise<JobActor | undefined> {
  const row = await keyById(db, companyId, apiKeyId);
  if (!row) return undefined;
  const unusable = keyUnusable(row);
  return {
    companyId,
    company: row.company,
    key: { id: row.id, kind: row.kind, scopes: row.scopes, personId: row.person_id },
    actor: {
      personId: row.person_id,
      role: row.member_role,
      restricted: row.kind === 'personal' && row.member_role === 'member',
    },
    refusal: unusable ? KEY_REFUSALS[unusable] : companyRefusal(row.company),
  };
}

/**
 * A job started from a web session acts as the member who started it, with the session's rights (sessionScopes),
 * while that member is active and the company passes the gates; signing out does not stop it.
 */
async function sessionJobActor(db: Executor, companyId: string, personId: number): Promise<JobActor | undefined> {
  const row = await db
    .selectFrom('members as m')
    .innerJoin('companies as c', 'c.id', 'm.company_id')
    .select(['m.status', sql<'member' | 'admin' | 'owner'>`m.role`.as('role'), companyJson().as('company')])
    .where('m.company_id', '=', companyId)
    .where('m.person_id', '=', personId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    companyId,
    company: row.company,
    key: { id: null, kind: 'session', scopes: sessionScopes(row.role), personId },
    actor: { personId, role: row.role, restricted: row.role === 'member' },
    refusal:
      row.status === 'active'
        ? companyRefusal(row.company)
        : 'the member who started this job in the web application is not active',
  };
}

/** Whose rights a job runs with: the key that started it, or the member whose web session did. */
export function actorOfJob(
  db: Executor,
  job: Pick<ClaimedJob, 'company_id' | 'api_key_id' | 'session_person_id'>,
): Promise<JobActor | undefined> {
  if (job.api_key_id !== null) return jobActor(db, job.company_id, job.api_key_id);
  if (job.session_person_id !== null) return sessionJobActor(db, job.company_id, job.session_person_id);
  return Promise.resolve(undefined);
}
