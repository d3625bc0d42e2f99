import path from 'node:path';

export type HttpsMode = 'on' | 'always' | 'off';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** DATABASE_DIRECT_URL: the server itself when DATABASE_URL goes through a transaction pooler (decision 0060). */
  databaseDirectUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  operatorToken: string | undefined;
  requireHttps: HttpsMode;
  trustProxy: string | undefined;
  rateLimits: { read: number; write: number; address: number };
  logLevel: string;
  /** Time a client has to send a whole request (headers and body); 0 turns it off. */
  requestTimeoutMs: number;
  /** Keeps API key lookups in memory, evicted through PostgreSQL LISTEN/NOTIFY on every change. */
  keyCache: boolean;
  /** A socket with no traffic for this long is closed; 0 turns it off. */
  connectionTimeoutMs: number;
  webhooks: WebhookConfig;
  /** SMTP connection URL for outgoing mail; without it mail stays in mail_outbox and the log. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Client e-mails (POST /clients/{id}/emails) one company may send per fixed window; mails 0 turns it off. */
  clientMailQuota: { mails: number; windowSeconds: number };
  /** Where attachment bytes live: an S3-compatible bucket when configured, else files under dataDir. */
  storage: { s3: S3Config | undefined };
  /** Longest a statement of a request (or of background work) may run; 0 turns it off (decision 0046). */
  statementTimeoutMs: number;
  /** Longest a statement of a report (missed billing, KPI figures, time summary, BI) may run; 0 turns it off. */
  reportStatementTimeoutMs: number;
  /** A digitization's rules run in a worker thread that is stopped after this long (the job fails). */
  digitizeTimeLimitMs: number;
  /** Web sign-in sessions: idle and absolute time-outs, in milliseconds (docs/decisions/0051). */
  sessions: { idleMs: number; absoluteMs: number };
  /** SVC_PUBLIC_URL: where people open the web application (links in mails); see publicUrlOf. */
  publicUrl: string | undefined;
  /** This process's database pool (decision 0060): its size (unset: 20 in a server, 4 in a worker) and wait. */
  pool: { size: number | undefined; waitMs: number };
  /** GET /metrics (Prometheus text format) answers only to this bearer token; unset: no /metrics (decision 0059). */
  metricsToken: string | undefined;
  /** `npm run worker` only: a listener on this port serving /metrics alone (the worker has no HTTP server). */
  metricsPort: number | undefined;
}

export interface S3Config {
  /** Endpoint of an S3-compatible store (path-style addressing); undefined means AWS itself. */
  url: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

export interface WebhookConfig {
  /** false: every /webhooks route answers 503 WEBHOOKS_COMING_SOON and nothing is delivered. */
  enabled: boolean;
  /** Development and tests only: allows http and private/loopback targets. */
  allowPrivate: boolean;
  retryDelaysMs: number[];
  /** Deliveries per second per company; 0 turns pacing off. */
  rate: number;
  /** A delivery held back by pacing longer than this is parked as throttled. */
  maxDeferMs: number;
  timeoutMs: number;
  /** Attempts one worker runs at once. */
  concurrency: number;
  pollMs: number;
  /** Whether the server process runs a delivery worker too (separate workers: `npm run worker`). */
  inServer: boolean;
  /** The legacy v1.0 engine (decision 0054): seconds before its retries, and its service-wide signing key. */
  legacy: { retryDelaysMs: number[]; secret: string | undefined };
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function flagFrom(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

/** Seconds (decimals allowed, so tests can use short delays) as milliseconds. */
function secondsListFrom(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback.map((s) => s * 1000);
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.some((v) => !Number.isFinite(v) || v < 0))
    throw new Error(`${name} must be comma-separated non-negative seconds, got "${raw}"`);
  return values.map((v) => Math.round(v * 1000));
}

const secondsFrom = (env: NodeJS.ProcessEnv, name: string, fallback: number) =>
  secondsListFrom(env, name, [fallback])[0]!;

function webhookConfig(env: NodeJS.ProcessEnv): WebhookConfig {
  const rate = Number(env.SVC_WEBHOOK_RATE || 10);
  if (!Number.isFinite(rate) || rate < 0)
    throw new Error(`SVC_WEBHOOK_RATE must be a non-negative number, got "${env.SVC_WEBHOOK_RATE}"`);
  return {
    enabled: flagFrom(env, 'SVC_WEBHOOKS_ENABLED', true),
    allowPrivate: flagFrom(env, 'SVC_WEBHOOK_ALLOW_PRIVATE', false),
    retryDelaysMs: secondsListFrom(env, 'SVC_WEBHOOK_RETRY_DELAYS', [60, 300, 1800]),
    rate,
    maxDeferMs: secondsFrom(env, 'SVC_WEBHOOK_MAX_DEFER', 600),
    timeoutMs: secondsFrom(env, 'SVC_WEBHOOK_TIMEOUT', 10),
    concurrency: Math.max(1, intFrom(env, 'SVC_WEBHOOK_CONCURRENCY', 8)),
    pollMs: secondsFrom(env, 'SVC_WEBHOOK_POLL', 1),
    inServer: flagFrom(env, 'SVC_WEBHOOK_IN_SERVER', true),
    legacy: {
      retryDelaysMs: secondsListFrom(env, 'SVC_LEGACY_WEBHOOK_RETRY_DELAYS', [5, 30]),
      secret: env.SVC_LEGACY_WEBHOOK_SECRET || undefined,
    },
  };
}

function clientMailQuota(env: NodeJS.ProcessEnv): Config['clientMailQuota'] {
  const windowSeconds = intFrom(env, 'SVC_CLIENT_MAIL_WINDOW', 3600);
  if (windowSeconds < 1) throw new Error(`SVC_CLIENT_MAIL_WINDOW must be at least 1 second, got "${windowSeconds}"`);
  return { mails: intFrom(env, 'SVC_CLIENT_MAIL_QUOTA', 500), windowSeconds };
}

/** The operator token opens every tenant: short ones could be guessed, so they stop the start. */
export const OPERATOR_TOKEN_MIN_BYTES = 32;

/** A bearer token setting: a short one could be guessed, so it stops the start; unset turns `what` off. */
function tokenFrom(env: NodeJS.ProcessEnv, name: string, what: string): string | undefined {
  const token = env[name] || undefined;
  if (token !== undefined && Buffer.byteLength(token) < OPERATOR_TOKEN_MIN_BYTES)
    throw new Error(
      `${name} must be at least ${OPERATOR_TOKEN_MIN_BYTES} bytes long, got ${Buffer.byteLength(token)} (e.g. openssl rand -hex 32); unset it to turn ${what} off`,
    );
  return token;
}

/** SVC_METRICS_PORT: unset means no listener; 0 takes any free port (the log names it). */
function optionalPortFrom(env: NodeJS.ProcessEnv, name: string): number | undefined {
  if (!env[name]) return undefined;
  const port = intFrom(env, name, 0);
  if (port > 65535) throw new Error(`${name} must be a TCP port (0-65535), got "${env[name]}"`);
  return port;
}

function httpsMode(raw: string | undefined): HttpsMode {
  const value = (raw ?? 'on').toLowerCase();
  if (value === 'on' || value === 'always' || value === 'off') return value;
  throw new Error(`SVC_REQUIRE_HTTPS must be on, always or off, got "${raw}"`);
}

/** S3 is used when SVC_S3_URL or SVC_S3_BUCKET (or AWS_ENDPOINT_URL_S3) is set; otherwise the local disk. */
function s3Config(env: NodeJS.ProcessEnv): S3Config | undefined {
  const url = env.SVC_S3_URL || env.AWS_ENDPOINT_URL_S3 || undefined;
  if (!url && !env.SVC_S3_BUCKET) return undefined;
  return {
    url,
    bucket: env.SVC_S3_BUCKET || 'attachments',
    region: env.SVC_S3_REGION || env.AWS_REGION || 'us-east-1',
    accessKeyId: env.SVC_S3_ACCESS_KEY_ID || env.AWS_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.SVC_S3_SECRET_ACCESS_KEY || env.AWS_SECRET_ACCESS_KEY || undefined,
  };
}

/** A positive whole number of minutes or hours (the unit's length in ms), for the session time-outs. */
function durationFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, unitMs: number): number {
  const value = intFrom(env, name, fallback);
  if (value < 1) throw new Error(`${name} must be at least 1, got "${env[name]}"`);
  return value * unitMs;
}

function publicUrlFrom(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`SVC_PUBLIC_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`SVC_PUBLIC_URL must be an absolute http(s) URL, got "${raw}"`);
  return url.href.replace(/\/+$/, '');
}

function directUrlFrom(env: NodeJS.ProcessEnv): string | undefined {
  const direct = env.DATABASE_DIRECT_URL || undefined;
  if (direct && !env.DATABASE_URL) throw new Error('DATABASE_DIRECT_URL needs DATABASE_URL (the pooler) beside it');
  return direct;
}

function poolFrom(env: NodeJS.ProcessEnv): Config['pool'] {
  const size = env.SVC_DB_POOL_SIZE ? intFrom(env, 'SVC_DB_POOL_SIZE', 0) : undefined;
  if (size !== undefined && size < 1) throw new Error(`SVC_DB_POOL_SIZE must be at least 1, got "${size}"`);
  const waitMs = secondsFrom(env, 'SVC_DB_POOL_WAIT', 10);
  if (waitMs < 1) throw new Error(`SVC_DB_POOL_WAIT must be more than 0 seconds, got "${env.SVC_DB_POOL_WAIT}"`);
  return { size, waitMs };
}

/** The web application's public address: SVC_PUBLIC_URL, else this machine's port on loopback. */
export const publicUrlOf = (config: Config): string => config.publicUrl ?? `http://127.0.0.1:${config.port}`;

/** Reads the whole configuration once, at start-up; nothing else reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: intFrom(env, 'PORT', 8080),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    databaseDirectUrl: directUrlFrom(env),
    dataDir: path.resolve(env.SVC_DATA_DIR || './data'),
    redisUrl: env.REDIS_URL || undefined,
    operatorToken: tokenFrom(env, 'SVC_OPERATOR_TOKEN', 'the operator API'),
    requireHttps: httpsMode(env.SVC_REQUIRE_HTTPS),
    trustProxy: env.SVC_TRUST_PROXY || undefined,
    rateLimits: {
      read: intFrom(env, 'SVC_RATE_LIMIT_READ', 120),
      write: intFrom(env, 'SVC_RATE_LIMIT_WRITE', 30),
      address: intFrom(env, 'SVC_RATE_LIMIT_ADDRESS', 300),
    },
    logLevel: env.LOG_LEVEL || 'info',
    requestTimeoutMs: secondsFrom(env, 'SVC_REQUEST_TIMEOUT', 30),
    keyCache: flagFrom(env, 'SVC_KEY_CACHE', true),
    connectionTimeoutMs: secondsFrom(env, 'SVC_CONNECTION_TIMEOUT', 60),
    webhooks: webhookConfig(env),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.SVC_MAIL_FROM || 'Service API <no-reply@localhost>',
    clientMailQuota: clientMailQuota(env),
    storage: { s3: s3Config(env) },
    statementTimeoutMs: secondsFrom(env, 'SVC_STATEMENT_TIMEOUT', 15),
    reportStatementTimeoutMs: secondsFrom(env, 'SVC_REPORT_STATEMENT_TIMEOUT', 120),
    digitizeTimeLimitMs: secondsFrom(env, 'SVC_DIGITIZE_TIME_LIMIT', 10),
    sessions: {
      idleMs: durationFrom(env, 'SVC_SESSION_IDLE_MINUTES', 30, 60_000),
      absoluteMs: durationFrom(env, 'SVC_SESSION_ABSOLUTE_HOURS', 12, 3_600_000),
    },
    publicUrl: publicUrlFrom(env.SVC_PUBLIC_URL),
    pool: poolFrom(env),
    metricsToken: tokenFrom(env, 'SVC_METRICS_TOKEN', '/metrics'),
    metricsPort: optionalPortFrom(env, 'SVC_METRICS_PORT'),
  };
}
