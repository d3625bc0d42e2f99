import type { Readable, Writable } from 'node:stream';

/** A byte range, both ends inclusive (as HTTP Range and S3 GetObject count them). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Bytes on their way into the store under a key not yet known (content addressing: the key is the hash of
 * what is being written). Write to `stream`, then commit under the key, or discard; either way nothing is left
 * behind but a complete blob.
 */
export interface StagedBlob {
  stream: Writable;
  /**
   * Makes the written bytes the blob `key` (durably). A blob already stored under the key is kept, and its
   * modification time refreshed: the orphan sweep's grace period counts from the latest upload of the bytes.
   */
  commit(key: string): Promise<void>;
  /** Throws the written bytes away (safe to call after commit and more than once). */
  discard(): Promise<void>;
}

/** A stored blob as the orphan sweep sees it. */
export interface BlobInfo {
  key: string;
  size: number;
  modifiedAt: Date;
}

/** Content-keyed blob storage; every byte moves as a stream, never as one buffer. */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  stage(): Promise<StagedBlob>;
  put(key: string, body: Readable): Promise<void>;
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<BlobInfo | undefined>;
  delete(key: string): Promise<void>;
  /** Every stored blob, streamed page by page (never the whole listing in memory). */
  list(): AsyncIterable<BlobInfo>;
  /** Removes staged files last written before `before` (left by a process that died mid-upload); answers how many. */
  sweepStaging(before: Date): Promise<number>;
}

/** Keys are content hashes or similar tokens: nothing that could climb out of a folder or name a bucket path. */
const KEY = /^[a-z0-9][a-z0-9_-]{3,127}$/;

export function assertKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`invalid blob key "${key}"`);
}
