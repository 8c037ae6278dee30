import { PassThrough, Readable, Transform } from 'node:stream';
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
import type { FileEntry, FileStore } from './file-store';
import { StallGuard } from './stall';

/** The object store is out of reach: 503, like the database. */
export class ObjectStoreUnavailable extends HttpError {
  constructor(override readonly cause?: unknown) {
    super(503, 'The file store cannot be reached right now; try again shortly', 'UNAVAILABLE');
  }
}

/**
 * How long one call to the store (its retry included) may wait for an answer: within the
 * 5 s in which a request that needs the store is answered. The SDK's own request timeout
 * only logs a warning unless told to throw, and a GetObject counts as answered once its
 * headers are in, however its body then comes.
 */
const CALL_DEADLINE_MS = 4_000;
const CONNECT_TIMEOUT_MS = 1_500;
/**
 * An upload's request sends a part of up to 5 MB read ahead from the client, so its bytes
 * move as fast as the network lets them: none moving for this long means the store stopped.
 * Each of the two attempts may take this long, within the 5 s as well.
 */
const UPLOAD_IDLE_MS = 2_000;
/** The longest any one upload request may take at all, however its bytes move. */
const UPLOAD_REQUEST_MAX_MS = 120_000;
/** A download's body wanted by its reader while nothing comes from the store for this long: the store stopped. */
const BODY_IDLE_MS = 3_000;
/** How often a download's body is looked at for that. */
const BODY_CHECK_MS = 250;
/** Pause between two looks at a store that stopped answering. */
const PROBE_RETRY_MS = 500;

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
  /** Every call but the requests of uploads. */
  private readonly client: S3Client;
  /** Uploads' requests, whose bodies take as long as their size needs. */
  private readonly uploads: S3Client;
  private readonly bucket: string;
  private readonly guard: StallGuard;

  constructor(settings: S3Settings, events: { onStall?: () => void; onRecover?: () => void } = {}) {
    this.bucket = settings.bucket;
    const common = {
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
    } as const;
    this.client = new S3Client({
      ...common,
      requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: CALL_DEADLINE_MS, throwOnRequestTimeout: true },
    });
    this.uploads = new S3Client({
      ...common,
      requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, socketTimeout: UPLOAD_IDLE_MS, requestTimeout: UPLOAD_REQUEST_MAX_MS, throwOnRequestTimeout: true },
    });
    this.guard = new StallGuard({
      deadlineMs: CALL_DEADLINE_MS,
      probe: () => this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal: AbortSignal.timeout(CALL_DEADLINE_MS) }),
      retryMs: PROBE_RETRY_MS,
      unavailable: (cause) => new ObjectStoreUnavailable(cause),
      ...events,
    });
  }

  /** Bounded by the store's progress rather than a deadline: a large file from a slow client takes its time. */
  async put(key: string, source: Readable): Promise<{ size: number }> {
    this.guard.check();
    let size = 0;
    const counted = new PassThrough();
    counted.on('data', (chunk: Buffer) => (size += chunk.length));
    // A source that fails or is cut fails the upload, which then leaves no object behind.
    source.on('error', (err) => counted.destroy(err));
    source.pipe(counted);
    const upload = new Upload({ client: this.uploads, params: { Bucket: this.bucket, Key: key, Body: counted }, leavePartsOnError: false });
    try {
      await upload.done();
    } catch (err) {
      throw this.recognised(err);
    }
    return { size };
  }

  async get(key: string, range?: { start: number; end: number }): Promise<Readable | undefined> {
    try {
      const answer = await this.call((abortSignal) =>
        this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }), {
          abortSignal,
        }),
      );
      return answer.Body instanceof Readable ? this.watched(answer.Body) : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async stat(key: string): Promise<{ size: number } | undefined> {
    try {
      const head = await this.call((abortSignal) => this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }), { abortSignal }));
      return { size: head.ContentLength ?? 0 };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.call((abortSignal) => this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }), { abortSignal }));
  }

  async *entries(): AsyncIterable<FileEntry> {
    const pages = paginateListObjectsV2({ client: this.client }, { Bucket: this.bucket })[Symbol.asyncIterator]();
    for (;;) {
      const page = await this.call(() => pages.next());
      if (page.done) return;
      for (const object of page.value.Contents ?? []) {
        if (object.Key) yield { key: object.Key, modifiedAt: object.LastModified?.getTime() ?? 0 };
      }
    }
  }

  /** Whether the bucket answers within `timeoutMs`. */
  async ping(timeoutMs: number): Promise<boolean> {
    return this.guard.answers((abortSignal) => this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), { abortSignal }), timeoutMs);
  }

  close(): void {
    this.guard.close();
    this.client.destroy();
    this.uploads.destroy();
  }

  private async call<T>(send: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      return await this.guard.run(send);
    } catch (err) {
      throw this.recognised(err);
    }
  }

  /** The 503 for an error that says the store is out of reach (and a stall noted when it stopped answering); else the error. */
  private recognised(err: unknown): unknown {
    if (!isObjectStoreUnreachable(err)) return err;
    if ((err as { name?: unknown }).name === 'TimeoutError') this.guard.stall();
    return err instanceof ObjectStoreUnavailable ? err : new ObjectStoreUnavailable(err);
  }

  /**
   * A download's body that fails once its reader wants more and the store has sent nothing
   * for BODY_IDLE_MS: the SDK's deadlines end with the headers, and a body from a store
   * that stopped would otherwise hold its request open for good. Time the reader spends
   * not reading (a slow client) does not count.
   */
  private watched(body: Readable): Readable {
    let quietSince = Date.now();
    const out = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        quietSince = Date.now();
        done(null, chunk);
      },
    });
    body.on('resume', () => (quietSince = Date.now()));
    const timer = setInterval(() => {
      if (body.readableFlowing !== true || Date.now() - quietSince < BODY_IDLE_MS) return;
      this.guard.stall();
      const err = new ObjectStoreUnavailable(new Error(`no bytes for ${BODY_IDLE_MS} ms`));
      body.destroy(err);
      out.destroy(err);
    }, BODY_CHECK_MS);
    timer.unref();
    out.once('close', () => {
      clearInterval(timer);
      body.destroy();
    });
    body.once('error', (err) => out.destroy(err));
    return body.pipe(out);
  }
}
