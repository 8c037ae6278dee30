import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { inject } from 'vitest';
import { describeWhenAvailable } from './engine-suite';

const engine = inject('s3');

/** s3rver takes any key pair; these are its documented defaults. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * Suites that need the S3-compatible server. Without it they are skipped and say why; in CI
 * (CI=true) they fail instead.
 */
export const describeS3 = describeWhenAvailable('endpoint' in engine ? undefined : engine.missing);

export function s3Endpoint(): string {
  if (!('endpoint' in engine)) throw new Error(engine.missing);
  return engine.endpoint;
}

/** A new, empty bucket of the current test's own, as the S3_* settings that name it; `endpoint` may point through a relay. */
export async function freshBucketEnv(endpoint = s3Endpoint()): Promise<Record<string, string>> {
  const bucket = `t-${randomBytes(6).toString('hex')}`;
  const client = new S3Client({ region: 'us-east-1', endpoint: s3Endpoint(), forcePathStyle: true, credentials: CREDENTIALS });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return {
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}
