import type { IntegrationInvoiceListParams } from './integrations.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { afterCommit, inTransaction } from '../../platform/context.ts';
import type { ClaimedJob } from '../../platform/modules.ts';
import * as jobs from '../jobs/index.ts';
import {
  SYNC_ENTITIES,
  type EntitySummary,
  type SyncEntity,
  type SyncRequestBody,
  type SyncSummary,
} from './integrations.schemas.ts';
import * as repo from './integrations.repository.ts';

export const SYNC_JOB = 'reference_data_sync';

export const listReadyInvoices = (ctx: Ctx, params: IntegrationInvoiceListParams) =>
  repo.listReadyInvoices(ctx, params);

interface SyncParams {
  entities: SyncEntity[];
}

/**
 * No accounting system can be connected yet (the service has no connection settings for one), so the job
 * sends nothing: it records, per entity, what it would send.
 */
const NOT_CONNECTED =
  'No accounting system is connected: nothing was sent. The summary lists the reference data a sync would send.';

/**
 * The reference_data_sync job: collects counts and ids of the company's taxes, products, invoice sellers and
 * clients (the chosen ones) and stores the summary on the job. Repeating it is
 * harmless: it only reads and overwrites its own summary.
 */
export async function runSyncJob(ctx: Ctx, job: ClaimedJob): Promise<void> {
  const { entities } = job.params as SyncParams;
  await inTransaction(ctx, async (tx) => {
    await jobs.assertMayRun(tx, job);
    const collected: Partial<Record<SyncEntity, EntitySummary>> = {};
    for (const entity of entities) collected[entity] = await repo.summarize(tx, entity);
    const summary: SyncSummary = {
      accounting_system: null,
      delivered: false,
      note: NOT_CONNECTED,
      collected_at: new Date().toISOString(),
      entities: collected,
    };
    const total = Object.values(collected).reduce((sum, e) => sum + e.count, 0);
    if (!(await jobs.recordJobResult(tx, job.id, summary, total)))
      throw new jobs.LostClaim(`job ${job.id} is no longer running here`);
  });
}

/** Queues the job (answered 202 with it); it starts in this process once the request has committed. */
export async function startSync(ctx: Ctx, body: SyncRequestBody): Promise<jobs.JobRecord> {
  // Stored in the catalogue's order, whatever order was asked for, so equal requests make equal jobs.
  const wanted = new Set(body.entities ?? SYNC_ENTITIES);
  const params: SyncParams = { entities: SYNC_ENTITIES.filter((e) => wanted.has(e)) };
  const job = await inTransaction(ctx, async (tx) => jobs.getJob(tx, await jobs.insertJob(tx, SYNC_JOB, params)));
  // If this start is lost (a crash), a job runner's poll picks the queued job up.
  afterCommit(ctx, (db) => jobs.kickJob(db, ctx.companyId, job.id, runSyncJob));
  return job;
}
