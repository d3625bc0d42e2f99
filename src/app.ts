import Fastify, { LogController, type FastifyContextConfig, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Database, Db } from './db/database.ts';
import type { Config } from './config.ts';
import { registerSerializerCache, registerValidators } from './platform/validation.ts';
import { registerErrorHandling, type UndeclaredErrorListener } from './platform/error-handler.ts';
import { registerPipeline } from './platform/pipeline.ts';
import { registerMoneyFields } from './platform/field-tier.ts';
import { KeyCache, listenForAuthChanges } from './platform/key-cache.ts';
import type { KeyRow } from './platform/auth.ts';
import type { SessionRow } from './platform/session-auth.ts';
import { setSessionSecret } from './platform/session-credential.ts';
import { registerIdempotency } from './platform/idempotency.ts';
import { ErrorBody, V3_PREFIX } from './platform/http.ts';
import { FinancialEntities, WRITE_METHODS } from './platform/activities.ts';
import { registerRequestTransaction } from './platform/request-transaction.ts';
import { RateLimits } from './platform/ratelimit.ts';
import { setCursorSecret } from './platform/lists.ts';
import { registerDocs } from './platform/docs.ts';
import { registerWebApp } from './platform/web-host.ts';
import { healthRoutes } from './platform/health.ts';
import { countRequests, createMetrics } from './platform/metrics.ts';
import { metricsRoutes } from './platform/metrics-routes.ts';
import { loadModules } from './modules/index.ts';
import type { Registry, ServiceModule } from './platform/modules.ts';

export interface AppOptions {
  config: Config;
  db: Database;
  redis?: Redis;
  /** Where logs go (tests capture them); defaults to stdout. */
  logStream?: NodeJS.WritableStream;
  /** The built web application to serve at `/` (dist/web); without it only the APIs are served. */
  webDir?: string;
  /** The server itself for the change listener when db goes through a transaction pooler (DATABASE_DIRECT_URL). */
  listenUrl?: string;
  /** Tests: told of each error code a route answers without declaring it (error-handler.ts). */
  onUndeclaredError?: UndeclaredErrorListener;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Secrets and keys never reach a log line, whatever a route or a plugin decides to log. */
export const LOG_REDACTIONS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  'headers.authorization',
  'headers.cookie',
  '*.full_key',
  '*.api_key',
  '*.secret',
  '*.password',
  'full_key',
  'api_key',
];

export type App = FastifyInstance;

/** SVC_TRUST_PROXY: `true` trusts any proxy (only behind a private network edge), otherwise a list of addresses/CIDRs. */
function trustProxyOption(value: string | undefined): boolean | string[] {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Node checks running requests against requestTimeout (and headers against headersTimeout) only every
 * connectionsCheckingInterval (30 s by default): check often enough that a timeout is enforced near its value.
 */
function serverTimeouts(config: Config) {
  const request = config.requestTimeoutMs;
  if (request === 0) return {};
  return { headersTimeout: Math.min(request, 60_000), connectionsCheckingInterval: Math.min(1000, request / 2) };
}

export interface RouteInfo {
  method: string;
  url: string;
  config: FastifyContextConfig;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every registered route with its declared access rules; the route-walking tests read it. */
    routeTable: RouteInfo[];
    /** The configuration the app was built with (modules that depend on settings read it). */
    config: Config;
  }
}

/** A module's routes in a scope of their own, where each route's audit entity defaults to the module's. */
function moduleScope(module: ServiceModule, registry: Registry, db: Db) {
  return async (scope: FastifyInstance) => {
    scope.addHook('onRoute', (route) => {
      const config = (route.config ??= {}) as FastifyContextConfig;
      config.activity ??= module.entity;
      config.changesAuth ??= module.changesAuth;
      for (const method of [route.method].flat()) scope.financialEntities.noteRoute(method, config);
      const writes = [route.method].flat().some((m) => WRITE_METHODS.has(m));
      if (writes && config.activity === undefined)
        throw new Error(`${route.url}: module ${module.name} declares no entity for the audit trail`);
    });
    if (module.routes) await scope.register(module.routes, { registry, db });
  };
}

interface AuthCaches {
  keys: KeyCache<KeyRow>;
  sessions: KeyCache<SessionRow>;
}

/** The in-process key and session caches and their one change listener (SVC_KEY_CACHE=false turns all off). */
function authCachesFor(app: App, options: AppOptions): AuthCaches | undefined {
  if (!options.config.keyCache) return undefined;
  const caches = { keys: new KeyCache<KeyRow>(), sessions: new KeyCache<SessionRow>() };
  const listener = listenForAuthChanges(
    options.listenUrl ? { connectionString: options.listenUrl } : options.db.pool.options,
    [caches.keys, caches.sessions] as Array<KeyCache<unknown>>,
    (message, error) => app.log.warn({ err: (error as Error | undefined)?.message }, message),
  );
  app.addHook('onClose', () => listener.close());
  return caches;
}

/**
 * The database's notice reaches the listener a moment after the commit, possibly after this process has
 * answered; so a write made here evicts its company here too, once committed (this hook runs after the
 * request transaction's), and the caller's next request can never see the old key.
 */
function evictOnOwnAuthWrites(app: App, caches: AuthCaches): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' && reply.statusCode < 300 && request.routeOptions.config.changesAuth && request.ctx) {
      caches.keys.evictCompany(request.ctx.companyId);
      caches.sessions.evictCompany(request.ctx.companyId);
    }
    return payload;
  });
}

export async function buildApp(options: AppOptions): Promise<App> {
  const { config, db } = options;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: LOG_REDACTIONS, censor: '[redacted]' },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    trustProxy: trustProxyOption(config.trustProxy),
    // 1 MB holds any single record's body; routes that take many records raise it (POST /time-entries/bulk).
    bodyLimit: 1024 * 1024,
    // Without a proxy in front, a client trickling a body must not hold a socket for ever.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.connectionTimeoutMs,
    http: serverTimeouts(config),
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const routeTable: RouteInfo[] = [];
  app.decorate('routeTable', routeTable);
  app.decorate('config', config);
  app.decorate('financialEntities', new FinancialEntities());
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      routeTable.push({ method, url: route.url, config: (route.config ?? {}) as FastifyContextConfig });
  });
  app.addSchema(ErrorBody);
  registerValidators(app);
  registerSerializerCache(app);
  registerErrorHandling(app, options.onUndeclaredError);
  // Actions take no body (POST /invoices/{id}/mark-paid): a client that still says application/json and sends
  // nothing gets the action, not 400. Anything sent is parsed by Fastify's own (prototype-safe) JSON parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, String(body), done),
  );
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    // Debug only: the headers pass through LOG_REDACTIONS, so keys and tokens show as [redacted].
    request.log.debug({ headers: request.headers }, 'request headers');
  });

  const secrets = await db.db
    .selectFrom('platform_settings')
    .select(['name', 'value'])
    .where('name', 'in', ['cursor_secret', 'session_secret'])
    .execute();
  const secret = (name: string) => secrets.find((row) => row.name === name)!.value;
  setCursorSecret(secret('cursor_secret'));
  setSessionSecret(secret('session_secret'));
  const limits = new RateLimits(config.rateLimits, options.redis);
  const caches = authCachesFor(app, options);
  const keyCache = caches?.keys;
  registerPipeline(app, { db: db.db, config, limits, keyCache, sessionCache: caches?.sessions });
  registerMoneyFields(app);
  const idempotency = registerIdempotency(app, db.db);
  registerRequestTransaction(app, db.db);
  if (caches) evictOnOwnAuthWrites(app, caches);
  const registry = loadModules();
  // Only with SVC_METRICS_TOKEN, else nothing is measured (decision 0059); counted before any route is added.
  const metrics = config.metricsToken
    ? createMetrics({ pool: db.pool, db: db.db, modules: registry.modules, caches, idempotency })
    : undefined;
  if (metrics) countRequests(app, metrics);
  await registerDocs(app);

  await app.register(healthRoutes, {
    prefix: V3_PREFIX,
    db: db.db,
    redis: options.redis,
    limits,
    trustProxy: config.trustProxy,
  });
  if (metrics) await app.register(metricsRoutes, { config, metrics, limits });
  await app.register(
    async (v3) => {
      for (const module of registry.modules) await v3.register(moduleScope(module, registry, db.db));
    },
    { prefix: V3_PREFIX },
  );
  const mountOptions = { config, db: db.db, registry, limits, ...(keyCache ? { keyCache } : {}) };
  for (const { prefix, routes } of registry.modules.flatMap((module) => module.mounts ?? [])) {
    await app.register(routes, { ...mountOptions, prefix });
  }
  if (options.webDir) await registerWebApp(app, options.webDir);
  return app;
}
