import path from 'node:path';

export type HttpsMode = 'on' | 'always' | 'off';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  redisUrl: string | undefined;
  operatorToken: string | undefined;
  requireHttps: HttpsMode;
  trustProxy: string | undefined;
  rateLimits: { read: number; write: number; address: number };
  logLevel: string;
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function httpsMode(raw: string | undefined): HttpsMode {
  const value = (raw ?? 'on').toLowerCase();
  if (value === 'on' || value === 'always' || value === 'off') return value;
  throw new Error(`SVC_REQUIRE_HTTPS must be on, always or off, got "${raw}"`);
}

/** Reads the whole configuration once, at start-up; nothing else reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: intFrom(env, 'PORT', 8080),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.SVC_DATA_DIR || './data'),
    redisUrl: env.REDIS_URL || undefined,
    operatorToken: env.SVC_OPERATOR_TOKEN || undefined,
    requireHttps: httpsMode(env.SVC_REQUIRE_HTTPS),
    trustProxy: env.SVC_TRUST_PROXY || undefined,
    rateLimits: {
      read: intFrom(env, 'SVC_RATE_LIMIT_READ', 120),
      write: intFrom(env, 'SVC_RATE_LIMIT_WRITE', 30),
      address: intFrom(env, 'SVC_RATE_LIMIT_ADDRESS', 300),
    },
    logLevel: env.LOG_LEVEL || 'info',
  };
}
