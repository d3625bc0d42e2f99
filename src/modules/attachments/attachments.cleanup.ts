import type { Executor } from '../../db/database.ts';
import type { JobServices } from '../../platform/modules.ts';
import { storageFor, type BlobInfo, type BlobStore } from '../../platform/storage/index.ts';
import { referencedBlobs } from './attachments.repository.ts';

const HOUR = 60 * 60 * 1000;
/**
 * How old an unreferenced blob must be before it goes. An upload stores its blob before its record commits
 * (at most the request time-out later), and a deleted attachment keeps its bytes this long; a day is far
 * beyond both, and short enough that failed uploads do not pile up.
 */
export const ORPHAN_GRACE_MS = 24 * HOUR;
export const SWEEP_EVERY_MS = HOUR;
/** Keys asked about per query: one page of a store listing, bounded memory whatever the store's size. */
const BATCH = 500;

type SweepOutcome = {
  blobs_deleted: number;
  staged_deleted: number;
};

/** Deletes the candidates no attachment names; each is re-read first, so one re-uploaded meanwhile stays. */
async function deleteUnreferenced(db: Executor, store: BlobStore, batch: BlobInfo[], cutoff: Date): Promise<number> {
  const referenced = await referencedBlobs(
    db,
    batch.map((b) => b.key),
    cutoff,
  );
  let deleted = 0;
  for (const blob of batch) {
    if (referenced.has(blob.key)) continue;
    const current = await store.stat(blob.key);
    if (!current || current.modifiedAt >= cutoff) continue;
    await store.delete(blob.key);
    deleted++;
  }
  return deleted;
}

/**
 * The orphan sweep: blobs last written before `now - grace` that no live (or recently deleted) attachment of
 * any company names are deleted, and so are staged files left by a process that died mid-upload. Safe to run
 * on several processes at once (deleting twice is harmless). A re-upload of the same bytes refreshes the
 * blob's time (commit), so a record about to commit keeps its bytes; should a blob still vanish under a
 * record, its verification marks it `failed` instead of serving missing bytes.
 */
export async function sweepOrphanBlobs(
  db: Executor,
  store: BlobStore,
  now: Date,
  graceMs = ORPHAN_GRACE_MS,
): Promise<SweepOutcome> {
  const cutoff = new Date(now.getTime() - graceMs);
  let blobs = 0;
  let batch: BlobInfo[] = [];
  for await (const blob of store.list()) {
    if (blob.modifiedAt >= cutoff) continue;
    batch.push(blob);
    if (batch.length < BATCH) continue;
    blobs += await deleteUnreferenced(db, store, batch, cutoff);
    batch = [];
  }
  blobs += await deleteUnreferenced(db, store, batch, cutoff);
  return { blobs_deleted: blobs, staged_deleted: await store.sweepStaging(cutoff) };
}

/** The periodic task's entry: the store the running process is configured with. */
export async function sweepOrphans(db: Executor, now: Date, services?: JobServices): Promise<SweepOutcome | void> {
  if (!services) return;
  return sweepOrphanBlobs(db, storageFor(services.config), now);
}
