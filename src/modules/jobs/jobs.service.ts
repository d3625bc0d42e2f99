import type { Ctx } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import type { JobRecord } from './jobs.schemas.ts';
import * as repo from './jobs.repository.ts';

export async function getJob(ctx: Ctx, id: number): Promise<JobRecord> {
  const job = await repo.findJob(ctx, id);
  if (!job) throw notFound('Job');
  return job;
}
