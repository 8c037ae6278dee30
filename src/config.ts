import path from 'node:path';
import addressparser from 'nodemailer/lib/addressparser';
import { z } from 'zod';
import type { S3Settings } from './platform/s3-file-store';
import { canonicalTimeZone } from './platform/time-zone';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/**
 * One mailbox as a From header takes it: an address, alone or after a display name. The host
 * may be a single name (`no-reply@localhost`), which strict e-mail checks refuse.
 */
function isMailbox(value: string): boolean {
  if (/[\r\n]/.test(value)) return false;
  const parsed = addressparser(value, { flatten: true });
  return parsed.length === 1 && /^[^\s@]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(parsed[0].address);
}

/** Members choose among the zones' usual spellings, so a zone is kept as usually written; the default is one of them. */
const timeZoneSetting = z
  .string()
  .default('Asia/Qatar')
  .transform((value, ctx) => {
    const zone = canonicalTimeZone(value);
    if (zone === undefined) {
      ctx.issues.push({ code: 'custom', input: value, message: 'must be an IANA time zone, such as Asia/Qatar or Europe/London' });
      return z.NEVER;
    }
    return zone;
  });

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  UPLOAD_DIR: z.string().min(1).default('./uploads'),
  ADMIN_PIN: optionalText.pipe(z.string().regex(/^\d{4,12}$/, 'must be 4 to 12 digits').optional()),
  AIRTABLE_API_KEY: optionalText,
  AIRTABLE_BASE_ID: optionalText,
  AIRTABLE_ENDPOINT_URL: optionalText.pipe(z.url().optional()),
  JWT_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  SESSION_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  DEFAULT_ADMIN_EMAIL: z.email().default('admin@workspace.local'),
  DEFAULT_ADMIN_PASSWORD: z.string().min(10).default('ChangeMe-2026'),
  UPLOAD_MAX_MB: z.coerce.number().positive().max(2048).default(25),
  UPLOAD_MAX_FILES: z.coerce.number().int().min(1).max(100).default(10),
  COOKIE_SECURE: bool.default(false),
  TRUST_PROXY: optionalText,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: optionalText.pipe(z.string().regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// URL').optional()),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  REDIS_URL: optionalText.pipe(z.string().regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL').optional()),
  S3_BUCKET: optionalText.pipe(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)').optional()),
  S3_ENDPOINT: optionalText.pipe(z.url().optional()),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  PUBLIC_URL: optionalText.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
      .refine((v) => !/[?#]/.test(v), 'must not hold a query or a fragment')
      .optional(),
  ),
  SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL, such as smtp://user:pass@host:587' }).optional()),
  MAIL_FROM: z
    .string()
    .default('Museum Platform <no-reply@localhost>')
    .refine(isMailbox, 'must be an address, such as "Museum Workspace <no-reply@example.org>" or no-reply@example.org'),
  WORKSPACE_TIMEZONE: timeZoneSetting,
  // For the project's own tests only (not documented for operators): a lease short enough
  // that a test can see a killed holder's lock, or its claim on a mail, end without waiting.
  TEST_LOCK_LEASE_MS: z.coerce.number().int().min(100).max(600_000).optional(),
  METRICS_TOKEN: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  DASHBOARD_TIMEZONE: timeZoneSetting,
  DASHBOARD_CURRENCY: z
    .string()
    .default('QAR')
    .refine((v) => Intl.supportedValuesOf('currency').includes(v), 'must be an ISO 4217 currency code in capitals, such as QAR or EUR'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  uploadDir: string;
  /** Undefined until the server decides: configured, or generated at start. */
  adminPin: string | undefined;
  airtable: { apiKey: string; baseId: string; endpointUrl: string | undefined } | undefined;
  jwtSecret: string | undefined;
  sessionSecret: string | undefined;
  defaultAdmin: { email: string; password: string };
  upload: { maxBytes: number; maxFiles: number };
  cookieSecure: boolean;
  trustProxy: boolean | number | string | undefined;
  logLevel: string;
  /** PostgreSQL for every record when set; SQLite files under dataDir otherwise. */
  database: { url: string; poolMax: number } | undefined;
  /** Sessions, attempt counts and notices shared by every instance when set; process memory otherwise. */
  redisUrl: string | undefined;
  /** Uploads in this bucket of an S3-compatible store when set; under uploadDir otherwise. */
  s3: S3Settings | undefined;
  /** ISO 4217 code of the dashboard's revenue figures. */
  dashboardCurrency: string;
  /** The dashboard's "today": presets, "yesterday", partial buckets, the import's last day, report times. */
  dashboardTimeZone: string;
  mail: {
    /** The base of every link in a mail, without a trailing slash. */
    publicUrl: string;
    /** Mail goes through this SMTP server when set; written as .eml files under dataDir/outbox otherwise. */
    smtpUrl: string | undefined;
    from: string;
  };
  /** Members' time zone until they choose their own (digests, the calendar's "today"). */
  workspaceTimeZone: string;
  /** The bearer token that opens GET /metrics; unset, there is no such route and nothing is measured. */
  metricsToken: string | undefined;
  /** How long a lock outlives a holder that stopped renewing it; undefined: the platform's own (tests shorten it). */
  lockLeaseMs: number | undefined;
}



export class ConfigError extends Error {}

function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** Reads and validates the environment once; the only place in the code base that does. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // A blank variable (`PORT=` in a copied .env.example) means unset; coerced, it would be PORT 0.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value === undefined || value.trim() !== ''));
  const result = schema.safeParse(given);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue.path[0] ?? 'environment');
    throw new ConfigError(`Invalid environment variable ${name}: ${issue.message}`);
  }
  const e = result.data;
  const airtable =
    e.AIRTABLE_API_KEY && e.AIRTABLE_BASE_ID
      ? { apiKey: e.AIRTABLE_API_KEY, baseId: e.AIRTABLE_BASE_ID, endpointUrl: e.AIRTABLE_ENDPOINT_URL }
      : undefined;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    uploadDir: path.resolve(e.UPLOAD_DIR),
    adminPin: e.ADMIN_PIN,
    airtable,
    jwtSecret: e.JWT_SECRET,
    sessionSecret: e.SESSION_SECRET,
    defaultAdmin: { email: e.DEFAULT_ADMIN_EMAIL.toLowerCase(), password: e.DEFAULT_ADMIN_PASSWORD },
    upload: { maxBytes: Math.round(e.UPLOAD_MAX_MB * 1024 * 1024), maxFiles: e.UPLOAD_MAX_FILES },
    cookieSecure: e.COOKIE_SECURE,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    logLevel: e.LOG_LEVEL,
    database: e.DATABASE_URL ? { url: e.DATABASE_URL, poolMax: e.DATABASE_POOL_MAX } : undefined,
    redisUrl: e.REDIS_URL,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          credentials: s3Credentials(e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY),
          forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
        }
      : undefined,
    dashboardCurrency: e.DASHBOARD_CURRENCY,
    dashboardTimeZone: e.DASHBOARD_TIMEZONE,
    mail: {
      publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
      smtpUrl: e.SMTP_URL,
      from: e.MAIL_FROM,
    },
    workspaceTimeZone: e.WORKSPACE_TIMEZONE,
    metricsToken: e.METRICS_TOKEN,
    lockLeaseMs: e.TEST_LOCK_LEASE_MS,
  };
}

function s3Credentials(accessKeyId: string | undefined, secretAccessKey: string | undefined): S3Settings['credentials'] {
  if (accessKeyId === undefined && secretAccessKey === undefined) return undefined;
  if (accessKeyId === undefined || secretAccessKey === undefined) {
    throw new ConfigError('Invalid environment variable S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all');
  }
  return { accessKeyId, secretAccessKey };
}
