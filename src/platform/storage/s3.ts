import { createReadStream } from 'node:fs';
import { stat as statFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../../config.ts';
import { assertKey, type BlobInfo, type BlobStore, type ByteRange, type StagedBlob } from './blob.ts';
import { settle, stageFile, sweepStagingDir } from './local.ts';

const notFound = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
};

/**
 * Blobs as objects of one bucket in any S3-compatible store. A blob is staged on local disk first (its key is
 * its hash, known only at the end), then sent as one streamed PutObject of known length: an object appears
 * whole or not at all, so there is no half-written blob to clean up either.
 */
type Sdk = typeof import('@aws-sdk/client-s3');

/**
 * The AWS SDK is loaded on first use, not at start: a server storing on local disk never pays its memory
 * (about 10 MB of module code).
 */
async function connect(config: S3Config): Promise<{ sdk: Sdk; client: S3Client }> {
  const sdk = await import('@aws-sdk/client-s3');
  const client = new sdk.S3Client({
    endpoint: config.url,
    region: config.region,
    forcePathStyle: true,
    // Plain signed bodies: S3-compatible servers do not all accept the SDK's default aws-chunked trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(config.accessKeyId && config.secretAccessKey
      ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
      : {}),
  });
  return { sdk, client };
}

export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  private readonly bucket: string;
  private readonly staging: string;
  private readonly config: S3Config;
  private connection?: Promise<{ sdk: Sdk; client: S3Client }>;

  constructor(config: S3Config, staging: string) {
    this.bucket = config.bucket;
    this.staging = staging;
    this.config = config;
  }

  private s3(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.connection ??= connect(this.config);
    return this.connection;
  }

  /** The SDK client, for callers that need a command this store does not wrap (tests create their bucket). */
  async client(): Promise<S3Client> {
    return (await this.s3()).client;
  }

  private objectKey(key: string): string {
    assertKey(key);
    return `blobs/${key}`;
  }

  async stage(): Promise<StagedBlob> {
    const { file, staged } = await stageFile(this.staging);
    return {
      ...staged,
      commit: async (key) => {
        await settle(staged.stream);
        try {
          if (await this.stat(key)) return await this.touch(key);
          const size = (await statFile(file)).size;
          const { sdk, client } = await this.s3();
          await client.send(
            new sdk.PutObjectCommand({
              Bucket: this.bucket,
              Key: this.objectKey(key),
              Body: createReadStream(file),
              ContentLength: size,
            }),
          );
        } finally {
          await staged.discard();
        }
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
    const { sdk, client } = await this.s3();
    const out = await client.send(
      new sdk.GetObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    return out.Body as Readable;
  }

  /**
   * A copy onto itself with new metadata (bytes untouched, server-side) moves LastModified on in S3 and MinIO;
   * the `touched` metadata carries the time too, for stores that keep LastModified on a copy in place.
   */
  private async touch(key: string): Promise<void> {
    const objectKey = this.objectKey(key);
    const { sdk, client } = await this.s3();
    await client.send(
      new sdk.CopyObjectCommand({
        Bucket: this.bucket,
        Key: objectKey,
        CopySource: `${this.bucket}/${objectKey}`,
        MetadataDirective: 'REPLACE',
        Metadata: { touched: new Date().toISOString() },
      }),
    );
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    const { sdk, client } = await this.s3();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      const touched = Date.parse(head.Metadata?.touched ?? '');
      const modified = head.LastModified?.getTime() ?? 0;
      return { key, size: head.ContentLength ?? 0, modifiedAt: new Date(Math.max(modified, touched || 0)) };
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const { sdk, client } = await this.s3();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  /** ListObjectsV2 page by page (1,000 keys at most per page) under the blobs/ prefix. */
  async *list(): AsyncIterable<BlobInfo> {
    const { sdk, client } = await this.s3();
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: 'blobs/', ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice('blobs/'.length);
        if (key && object.LastModified) yield { key, size: object.Size ?? 0, modifiedAt: object.LastModified };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  sweepStaging(before: Date): Promise<number> {
    return sweepStagingDir(this.staging, before);
  }
}
