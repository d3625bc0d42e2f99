import path from 'node:path';
import type { Config } from '../../config.ts';
import { LocalBlobStore } from './local.ts';
import { S3BlobStore } from './s3.ts';
import type { BlobStore } from './blob.ts';

// The store's contract lives in blob.ts, which the two stores import, so nothing imports this file back.
export { assertKey, type BlobInfo, type BlobStore, type ByteRange, type StagedBlob } from './blob.ts';

const stores = new WeakMap<Config, BlobStore>();

/** The store the configuration names (S3-compatible when configured, else the local disk), one per configuration. */
export function storageFor(config: Config): BlobStore {
  let store = stores.get(config);
  if (!store) {
    const staging = path.join(config.dataDir, 'tmp');
    store = config.storage.s3
      ? new S3BlobStore(config.storage.s3, staging)
      : new LocalBlobStore(path.join(config.dataDir, 'blobs'), staging);
    stores.set(config, store);
  }
  return store;
}

export { LocalBlobStore, S3BlobStore };
