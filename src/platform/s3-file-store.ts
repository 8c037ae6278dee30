import { PassThrough, Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { HttpError } from './errors';
import type { FileStore } from './file-store';

/** The object store is out of reach: 503, like the database. */
export class ObjectStoreUnavailable extends HttpError {
  constructor(override readonly cause?: unknown) {
    super(503, 'The file store cannot be reached right now; try again shortly', 'UNAVAILABLE');
  }
}

/** Well under the 10 s within which a request that needs the store must be answered. */
const CONNECT_TIMEOUT_MS = 2_000;
const REQUEST_TIMEOUT_MS = 4_000;

const OUT_OF_REACH = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN', 'TimeoutError', 'RequestTimeout']);

/** Whether an error says the store is out of reach, rather than that a request was wrong. */
export function isObjectStoreUnreachable(err: unknown): boolean {
  if (err instanceof ObjectStoreUnavailable) return true;
  const e = err as { code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: number } } | null;
  if (!e) return false;
  if (typeof e.code === 'string' && OUT_OF_REACH.has(e.code)) return true;
  if (typeof e.name === 'string' && OUT_OF_REACH.has(e.name)) return true;
  const status = e.$metadata?.httpStatusCode;
  return status === 502 || status === 503 || status === 504;
}

/** Where the bucket is and how to reach it (config.ts reads them from S3_*). */
export interface S3Settings {
  bucket: string;
  /** Undefined: AWS itself. */
  endpoint: string | undefined;
  region: string;
  /** Undefined: the SDK's default chain (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
}

function isNotFound(err: unknown): boolean {
  if (!(err instanceof S3ServiceException)) return false;
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404;
}

/**
 * Files as objects of one bucket in an S3-compatible store (AWS, MinIO, Ceph, R2, s3rver),
 * shared by every instance. Streamed both ways: an upload goes up in parts as it arrives,
 * and a download comes down as the store sends it. Checksums only where the API requires
 * them, since many compatible stores refuse or mangle the SDK's default streaming ones.
 */
export class S3FileStore implements FileStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
    });
  }

  async put(key: string, source: Readable): Promise<{ size: number }> {
    let size = 0;
    const counted = new PassThrough();
    counted.on('data', (chunk: Buffer) => (size += chunk.length));
    // A source that fails or is cut fails the upload, which then leaves no object behind.
    source.on('error', (err) => counted.destroy(err));
    source.pipe(counted);
    const upload = new Upload({ client: this.client, params: { Bucket: this.bucket, Key: key, Body: counted }, leavePartsOnError: false });
    await this.run(() => upload.done());
    return { size };
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable | undefined> {
    try {
      const answer = await this.run(() =>
        this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined })),
      );
      return answer.Body instanceof Readable ? answer.Body : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async stat(key: string): Promise<{ size: number } | undefined> {
    try {
      const head = await this.run(() => this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })));
      return { size: head.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.run(() => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })));
  }

  async *keys(): AsyncIterable<string> {
    for await (const page of paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket })) {
      for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
    }
  }

  /** Whether the bucket answers within `timeoutMs`. */
  async ping(timeoutMs: number): Promise<boolean> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: AbortSignal.timeout(timeoutMs) });
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    this.client.destroy();
  }

  private async run<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      throw isObjectStoreUnreachable(err) ? new ObjectStoreUnavailable(err) : err;
    }
  }
}
