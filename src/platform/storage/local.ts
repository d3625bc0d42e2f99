import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { assertKey, type BlobInfo, type BlobStore, type ByteRange, type StagedBlob } from './blob.ts';

/** fsync of a folder, so a rename into it survives a crash (the entry, not just the file, is on disk). */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * A temporary file under `dir`, written and flushed (fsync on close). `settle` ends the write stream and waits
 * for it; a stream destroyed half-way is simply removed by discard.
 */
export async function stageFile(dir: string): Promise<{ file: string; staged: Omit<StagedBlob, 'commit'> }> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${randomUUID()}.part`);
  const stream = createWriteStream(file, { flags: 'wx', flush: true });
  return {
    file,
    staged: {
      stream,
      discard: async () => {
        if (!stream.destroyed) stream.destroy();
        await finished(stream).catch(() => undefined);
        await rm(file, { force: true });
      },
    },
  };
}

/** Waits until a staged write stream is closed (its fsync done), ending it first when the writer did not. */
export async function settle(stream: NodeJS.WritableStream & { closed?: boolean; writableEnded?: boolean }) {
  if (!stream.writableEnded) stream.end();
  await finished(stream);
}

const notFolder = (error: unknown) => missing(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR';
/** Names in a folder, or none when it does not exist (yet) or is a stray file. */
const entries = (dir: string) =>
  readdir(dir).catch((error: unknown) => (notFolder(error) ? [] : Promise.reject(error)));

/** Removes the staged `.part` files in `dir` last written before `before`; a file gone meanwhile is skipped. */
export async function sweepStagingDir(dir: string, before: Date): Promise<number> {
  let removed = 0;
  for (const name of await entries(dir)) {
    if (!name.endsWith('.part')) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (!info || info.mtime >= before) continue;
    await rm(file, { force: true });
    removed++;
  }
  return removed;
}

/**
 * Blobs as files under root, fanned out by the key's first characters. A blob appears only by rename of a
 * complete, fsynced temporary file (same file system: staging lives under the same data folder), so a crash
 * leaves either no blob or the whole one, never half a file under a key.
 */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local' as const;
  readonly root: string;
  readonly staging: string;
  constructor(root: string, staging: string) {
    this.root = root;
    this.staging = staging;
  }

  private pathOf(key: string): string {
    assertKey(key);
    return path.join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  async stage(): Promise<StagedBlob> {
    const { file, staged } = await stageFile(this.staging);
    return {
      ...staged,
      commit: async (key) => {
        const target = this.pathOf(key);
        await settle(staged.stream);
        if (await this.stat(key)) {
          const now = new Date();
          await utimes(target, now, now);
          return staged.discard();
        }
        await mkdir(path.dirname(target), { recursive: true });
        await rename(file, target);
        await syncDir(path.dirname(target));
      },
    };
  }

  async put(key: string, body: Readable): Promise<void> {
    const staged = await this.stage();
    try {
      await pipeline(body, staged.stream);
      await staged.commit(key);
    } finally {
      await staged.discard();
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    // Opened before answering, so a missing blob is an error here, not a broken stream later.
    const handle = await open(this.pathOf(key), 'r');
    return handle.createReadStream({ start: range?.start, end: range?.end });
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    try {
      const info = await stat(this.pathOf(key));
      return { key, size: info.size, modifiedAt: info.mtime };
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /** Walks the two fan-out levels; one folder's names at a time are in memory, not the whole store's. */
  async *list(): AsyncIterable<BlobInfo> {
    for (const a of await entries(this.root)) {
      for (const b of await entries(path.join(this.root, a))) {
        for (const key of await entries(path.join(this.root, a, b))) {
          const info = await this.stat(key).catch(() => undefined);
          if (info) yield info;
        }
      }
    }
  }

  sweepStaging(before: Date): Promise<number> {
    return sweepStagingDir(this.staging, before);
  }
}
