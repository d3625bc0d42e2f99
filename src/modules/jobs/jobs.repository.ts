import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { nextStamp } from '../../platform/sql.ts';
import type { JobRecord } from './jobs.schemas.ts';

const COLUMNS = [
  'id', 'type', 'status', 'total_count', 'processed_count', 'failed_count', 'failed_client_ids', 'skipped_count', 'skipped_client_ids',
  'created_at', 'started_at', 'finished_at',
] as const;

/** A plain member's personal key sees the jobs it started; everyone else sees the company's. */
export async function findJob(ctx: Ctx, id: number): Promise<JobRecord | undefined> {
  let query = ctx.db.selectFrom('jobs').select([...COLUMNS]).where('company_id', '=', ctx.companyId).where('id', '=', id);
  if (ctx.actor.restricted) query = query.where('api_key_id', '=', ctx.key.id);
  return query.executeTakeFirst() as Promise<JobRecord | undefined>;
}

export async function insertJob(ctx: Ctx, type: string, params: object): Promise<number> {
  const row = await ctx.db.insertInto('jobs').values({
    company_id: ctx.companyId, type, params: JSON.stringify(params), api_key_id: ctx.key.id,
    total_count: null, failed_count: null, failed_client_ids: null, skipped_count: null, skipped_client_ids: null, error: null, started_at: null, finished_at: null,
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

const update = (ctx: Ctx, id: number, values: Record<string, unknown>) =>
  ctx.db.updateTable('jobs').set({ ...values, updated_at: nextStamp() } as never).where('company_id', '=', ctx.companyId).where('id', '=', id).execute();

export const markRunning = (ctx: Ctx, id: number, total: number) =>
  update(ctx, id, { status: 'running', started_at: sql`date_trunc('milliseconds', clock_timestamp())`, total_count: total, processed_count: 0, failed_count: 0 });

export const recordProgress = (ctx: Ctx, id: number, processed: number, failed: number) =>
  update(ctx, id, { processed_count: processed, failed_count: failed });

export const markDone = (ctx: Ctx, id: number, status: 'finished' | 'failed', error: string | null = null) =>
  update(ctx, id, { status, error, finished_at: sql`date_trunc('milliseconds', clock_timestamp())` });
