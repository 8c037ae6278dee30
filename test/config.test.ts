import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig defaults (docs/decisions.md, Configuration)', () => {
  it('when nothing is set, then every default of the table applies', () => {
    expect(loadConfig({})).toEqual({
      port: 3001,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      uploadDir: path.resolve('./uploads'),
      adminPin: undefined,
      airtable: undefined,
      jwtSecret: undefined,
      sessionSecret: undefined,
      defaultAdmin: { email: 'admin@workspace.local', password: 'ChangeMe-2026' },
      upload: { maxBytes: 25 * 1024 * 1024, maxFiles: 10 },
      cookieSecure: false,
      trustProxy: undefined,
      logLevel: 'info',
      dashboardCurrency: 'QAR',
      dashboardTimeZone: 'Asia/Qatar',
      mail: { publicUrl: 'http://localhost:3001', smtpUrl: undefined, from: 'Museum Platform <no-reply@localhost>' },
      workspaceTimeZone: 'Asia/Qatar',
    });
  });

  it('when the mail settings are given, then links start at PUBLIC_URL (without its last slash), mail goes through SMTP_URL from MAIL_FROM', () => {
    const config = loadConfig({
      PUBLIC_URL: 'https://workspace.example.org/',
      SMTP_URL: 'smtps://mailer:s3cret@smtp.example.org:465',
      MAIL_FROM: '"Museum Workspace" <no-reply@example.org>',
      WORKSPACE_TIMEZONE: 'Europe/London',
    });
    expect(config.mail).toEqual({ publicUrl: 'https://workspace.example.org', smtpUrl: 'smtps://mailer:s3cret@smtp.example.org:465', from: '"Museum Workspace" <no-reply@example.org>' });
    expect(config.workspaceTimeZone).toBe('Europe/London');
    expect(loadConfig({ PORT: '8080' }).mail.publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ SMTP_URL: 'smtp://relay.internal:587' }).mail.smtpUrl).toBe('smtp://relay.internal:587');
    expect(loadConfig({ MAIL_FROM: 'no-reply@museum.qa' }).mail.from).toBe('no-reply@museum.qa');
  });

  it.each(['qar', 'QA', 'XYZ1', 'Riyal'])('when DASHBOARD_CURRENCY is %s, then the start stops naming the variable', (value) => {
    expect(configError({ DASHBOARD_CURRENCY: value }).message).toMatch(/^Invalid environment variable DASHBOARD_CURRENCY: must be an ISO 4217/);
  });

  it.each(['Mars/Olympus', 'UTC+3', 'Doha'])('when DASHBOARD_TIMEZONE is %s, then the start stops naming the variable', (value) => {
    expect(configError({ DASHBOARD_TIMEZONE: value }).message).toMatch(/^Invalid environment variable DASHBOARD_TIMEZONE: must be an IANA time zone/);
  });

  it('when DASHBOARD_TIMEZONE is given in another spelling, then the zone is kept as usually written', () => {
    expect(loadConfig({ DASHBOARD_TIMEZONE: 'europe/london' }).dashboardTimeZone).toBe('Europe/London');
  });

  it('when DASHBOARD_CURRENCY is EUR, then the dashboard counts in euros', () => {
    expect(loadConfig({ DASHBOARD_CURRENCY: 'EUR' }).dashboardCurrency).toBe('EUR');
  });

  it('when the variables are blank, as in a copied .env.example, then they count as unset', () => {
    const config = loadConfig({ ADMIN_PIN: '', AIRTABLE_API_KEY: '', AIRTABLE_BASE_ID: ' ', AIRTABLE_ENDPOINT_URL: '', JWT_SECRET: '', SESSION_SECRET: '', TRUST_PROXY: '' });
    expect(config.adminPin).toBeUndefined();
    expect(config.airtable).toBeUndefined();
    expect(config.jwtSecret).toBeUndefined();
    expect(config.sessionSecret).toBeUndefined();
    expect(config.trustProxy).toBeUndefined();
  });

  it('when PORT or another defaulted variable is blank, then its default applies (not port 0)', () => {
    const config = loadConfig({ PORT: '', HOST: ' ', LOG_LEVEL: '', COOKIE_SECURE: '', UPLOAD_MAX_MB: '' });
    expect(config).toMatchObject({ port: 3001, host: '0.0.0.0', logLevel: 'info', cookieSecure: false, upload: { maxBytes: 25 * 1024 * 1024 } });
  });

  it('when values are given, then they are parsed into the typed config', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: '/tmp/museum-data',
      UPLOAD_DIR: 'files',
      ADMIN_PIN: '0042',
      JWT_SECRET: 'j'.repeat(32),
      SESSION_SECRET: 's'.repeat(40),
      DEFAULT_ADMIN_EMAIL: 'Boss@Example.org',
      DEFAULT_ADMIN_PASSWORD: 'a-long-password',
      UPLOAD_MAX_MB: '1.5',
      UPLOAD_MAX_FILES: '3',
      COOKIE_SECURE: 'true',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      dataDir: '/tmp/museum-data',
      uploadDir: path.resolve('files'),
      adminPin: '0042',
      jwtSecret: 'j'.repeat(32),
      sessionSecret: 's'.repeat(40),
      defaultAdmin: { email: 'boss@example.org', password: 'a-long-password' },
      upload: { maxBytes: 1.5 * 1024 * 1024, maxFiles: 3 },
      cookieSecure: true,
      trustProxy: 1,
      logLevel: 'warn',
    });
  });

  it.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['loopback', 'loopback'],
  ])('when TRUST_PROXY is %s, then Express gets %s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(expected);
  });
});

describe('loadConfig bad values', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['LOG_LEVEL', 'loud'],
    ['UPLOAD_MAX_MB', '-1'],
    ['UPLOAD_MAX_MB', '0'],
    ['UPLOAD_MAX_FILES', 'many'],
    ['COOKIE_SECURE', 'maybe'],
    ['ADMIN_PIN', '12ab'],
    ['ADMIN_PIN', '123'],
    ['ADMIN_PIN', '1234567890123'],
    ['JWT_SECRET', 'short'],
    ['SESSION_SECRET', 'short'],
    ['AIRTABLE_ENDPOINT_URL', 'not a url'],
    ['DEFAULT_ADMIN_EMAIL', 'nobody'],
    ['DEFAULT_ADMIN_PASSWORD', 'short'],
    ['S3_BUCKET', 'Not_A_Bucket'],
    ['S3_ENDPOINT', 'not a url'],
    ['S3_FORCE_PATH_STYLE', 'yes'],
    ['PUBLIC_URL', 'workspace.example.org'],
    ['PUBLIC_URL', 'ftp://workspace.example.org'],
    ['PUBLIC_URL', 'https://workspace.example.org/?next=1'],
    ['SMTP_URL', 'http://smtp.example.org'],
    ['SMTP_URL', 'smtp.example.org:587'],
    ['MAIL_FROM', 'Museum Workspace'],
    ['MAIL_FROM', 'a@b.c, d@e.f'],
    ['WORKSPACE_TIMEZONE', 'Mars/Olympus'],
  ])('when %s=%s, then ConfigError on one line naming the variable', (name, value) => {
    const err = configError({ [name]: value });
    expect(err.message).toContain(name);
    expect(err.message).not.toContain('\n');
  });

  it('when several values are bad, then the message still names one variable on one line', () => {
    const err = configError({ PORT: 'abc', LOG_LEVEL: 'loud' });
    expect(err.message).toMatch(/PORT|LOG_LEVEL/);
    expect(err.message).not.toContain('\n');
  });
});

describe('loadConfig Airtable selection', () => {
  it('when both key and base are set, then Airtable is selected with the endpoint', () => {
    expect(loadConfig({ AIRTABLE_API_KEY: 'patKEY', AIRTABLE_BASE_ID: 'appBASE', AIRTABLE_ENDPOINT_URL: 'http://127.0.0.1:9999' }).airtable).toEqual({
      apiKey: 'patKEY',
      baseId: 'appBASE',
      endpointUrl: 'http://127.0.0.1:9999',
    });
  });

  it("when no endpoint is set, then the client's own default is left in place", () => {
    expect(loadConfig({ AIRTABLE_API_KEY: 'patKEY', AIRTABLE_BASE_ID: 'appBASE' }).airtable).toEqual({ apiKey: 'patKEY', baseId: 'appBASE', endpointUrl: undefined });
  });

  it.each([
    ['only the key', { AIRTABLE_API_KEY: 'patKEY' }],
    ['only the base', { AIRTABLE_BASE_ID: 'appBASE' }],
    ['the key and a blank base', { AIRTABLE_API_KEY: 'patKEY', AIRTABLE_BASE_ID: '   ' }],
    ['only the endpoint', { AIRTABLE_ENDPOINT_URL: 'http://127.0.0.1:9999' }],
  ])('when %s is set, then the embedded SQLite store stays selected', (_label, env) => {
    expect(loadConfig(env).airtable).toBeUndefined();
  });
});

describe('loadConfig object store selection', () => {
  it('when S3_BUCKET is unset, then uploads stay under UPLOAD_DIR and no other S3 setting matters', () => {
    expect(loadConfig({ S3_ENDPOINT: 'http://minio:9000' }).s3).toBeUndefined();
  });

  it('when S3_BUCKET is set alone, then AWS in us-east-1 with the SDK\'s own credentials and virtual-host addressing', () => {
    expect(loadConfig({ S3_BUCKET: 'museum-uploads' }).s3).toEqual({
      bucket: 'museum-uploads',
      endpoint: undefined,
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
    });
  });

  it('when every S3 setting is given, then all of them are kept', () => {
    const s3 = loadConfig({
      S3_BUCKET: 'museum-uploads',
      S3_ENDPOINT: 'http://minio.internal:9000',
      S3_REGION: 'eu-west-1',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    }).s3;
    expect(s3).toEqual({
      bucket: 'museum-uploads',
      endpoint: 'http://minio.internal:9000',
      region: 'eu-west-1',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
  });

  it('when only one half of the key pair is given, then ConfigError naming it', () => {
    const err = configError({ S3_BUCKET: 'museum-uploads', S3_ACCESS_KEY_ID: 'key' });
    expect(err.message).toContain('S3_ACCESS_KEY_ID');
    expect(err.message).not.toContain('\n');
  });
});
