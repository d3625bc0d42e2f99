import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';
import { assertCompanyManager, authenticate, companyIdFrom, type KeyRow } from './auth.ts';
import type { KeyCache } from './key-cache.ts';
import { hasTier, type Tier } from './scopes.ts';
import { forwardedByUntrustedPeer, isLoopback, limitAddress } from './network.ts';
import type { RateLimits } from './ratelimit.ts';
import type { Ctx } from './context.ts';
import { authenticateSession, type SessionRow } from './session-auth.ts';
import { sessionTokenOf } from './session-credential.ts';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const PROXY_WARNING_EVERY_MS = 10 * 60_000;
const proxyWarnedAt = new WeakMap<Config, number>();

/**
 * Forwarding headers from a peer that is not a trusted proxy. From loopback that is a reverse proxy
 * on this machine without SVC_TRUST_PROXY: said in the log every ten minutes at most, not per request.
 */
export function forwardedUntrusted(config: Config, request: FastifyRequest): boolean {
  if (!forwardedByUntrustedPeer(config.trustProxy, request)) return false;
  const now = Date.now();
  if (
    isLoopback(request.socket.remoteAddress) &&
    now - (proxyWarnedAt.get(config) ?? -Infinity) > PROXY_WARNING_EVERY_MS
  ) {
    proxyWarnedAt.set(config, now);
    request.log.warn(
      { peer: request.socket.remoteAddress },
      'requests with X-Forwarded-For/X-Forwarded-Proto/Forwarded headers arrive from a loopback peer that SVC_TRUST_PROXY does not trust: if a reverse proxy runs in front of the service, set SVC_TRUST_PROXY to its address (e.g. 127.0.0.1). Until then these requests get no loopback exemption from HTTPS, and the per-address limit counts the last X-Forwarded-For entry',
    );
  }
  return true;
}

export function checkHttps(config: Config, request: FastifyRequest): void {
  if (config.requireHttps === 'off' || request.protocol === 'https') return;
  // request.ip, not the socket: behind a trusted local proxy every socket peer is loopback. A
  // loopback peer forwarding without being trusted is an unconfigured proxy: its callers are not local.
  if (config.requireHttps === 'on' && isLoopback(request.ip) && !forwardedUntrusted(config, request)) return;
  throw new AppError('HTTPS_REQUIRED', 'Requests must use HTTPS');
}

export function checkGates(ctx: Ctx, request: FastifyRequest): void {
  if (ctx.company.plan !== 'pro')
    throw new AppError('PLAN_UPGRADE_REQUIRED', 'The company plan does not include API access; upgrade to use API v3');
  const write = !READ_METHODS.has(request.method);
  if (write && ctx.company.subscription_status === 'lapsed' && !request.routeOptions.config.allowWhenLapsed) {
    throw new AppError(
      'SUBSCRIPTION_READ_ONLY',
      'The company subscription has lapsed; the API is read-only until it is renewed',
    );
  }
}

export function checkTier(ctx: Ctx, tier: Tier, personalKeys: boolean, financial = false): void {
  if (!personalKeys && ctx.key.kind === 'personal') {
    throw new AppError('PERSONAL_KEY_CANNOT_MANAGE_KEYS', 'Personal keys cannot manage API keys', {
      required_scope: 'admin',
    });
  }
  // A personal key never carries financials, so a financial resource refuses it even where `write` would do; so
  // does a plain member's web session, which has the rights of their personal key (decision 0051).
  const personLike =
    ctx.key.kind === 'personal' || (ctx.key.kind === 'session' && !hasTier(ctx.key.scopes, 'financials'));
  const refused = !hasTier(ctx.key.scopes, tier) || (financial && personLike);
  if (refused) {
    if (tier === 'financials' || financial) {
      throw new AppError(
        'FINANCIAL_SCOPE_REQUIRED',
        'This resource needs the financials tier (carried by admin keys)',
        {
          required_scope: 'financials',
        },
      );
    }
    throw new AppError('FORBIDDEN', `This operation needs the ${tier} scope`, { required_scope: tier });
  }
  // Key management is a manager's, like webhook management: an admin key acting for a plain member could
  // otherwise mint itself a person-less admin key.
  if (!personalKeys) assertCompanyManager(ctx, 'Key management');
}

/**
 * Company-wide configuration (teams, client groups, topics, roles, workflow roles) is read-only for a plain
 * member's personal key: one member's write would change what every colleague works with.
 */
export function checkCompanyConfig(ctx: Ctx, companyConfig: boolean | undefined): void {
  if (!companyConfig || !ctx.actor.restricted) return;
  throw new AppError(
    'FORBIDDEN',
    "Company configuration is read-only for a plain member's personal key; an owner's or administrator's key may change it",
    { required_role: 'owner or admin' },
  );
}

interface PipelineDeps {
  db: Db;
  config: Config;
  limits: RateLimits;
  keyCache?: KeyCache<KeyRow> | undefined;
  sessionCache?: KeyCache<SessionRow> | undefined;
}

/** An API key when the request sends one (exactly as before sessions existed), else the web session's cookie. */
function authenticateRequest(deps: PipelineDeps, request: FastifyRequest): Promise<Ctx> {
  const companyId = companyIdFrom(request);
  if (request.headers['x-api-key'] !== undefined) return authenticate(deps.db, request, deps.keyCache);
  if (sessionTokenOf(request) !== undefined)
    return authenticateSession({ db: deps.db, config: deps.config, cache: deps.sessionCache }, request, companyId);
  throw new AppError('MISSING_AUTH', 'Send an X-API-Key header, or sign in (POST /auth/sessions) for a session cookie');
}

/** Keys are counted per key; sessions per member, so a person's browsers and tabs share one allowance. */
const limitKeyOf = (ctx: Ctx) =>
  ctx.key.kind === 'session' ? `${ctx.companyId}:member:${ctx.key.personId}` : `${ctx.companyId}:${ctx.key.id}`;

/**
 * Every v3 request passes the same checks in the spec's order: HTTPS, company header,
 * key, plan and subscription gates, rate limit, scope tier. Validation follows (Fastify).
 */
export function registerPipeline(app: FastifyInstance, deps: PipelineDeps): void {
  app.decorateRequest('ctx', null as unknown as Ctx);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const { tier, preview } = request.routeOptions.config;
    if (preview) reply.header('X-Api-Preview', 'true');
    if (!tier || tier === 'operator' || request.routeOptions.config.ownAuth) return;
    checkHttps(deps.config, request);
    forwardedUntrusted(deps.config, request);
    await deps.limits.consumeAddress(limitAddress(deps.config.trustProxy, request));
    if (tier === 'none') return;
    const ctx = await authenticateRequest(deps, request);
    request.ctx = ctx;
    checkGates(ctx, request);
    await deps.limits.consumeKey(
      READ_METHODS.has(request.method) ? 'read' : 'write',
      limitKeyOf(ctx),
      reply,
      ctx.key.kind === 'session' ? 'member' : 'API key',
    );
    const { personalKeys, financial } = request.routeOptions.config;
    checkTier(ctx, tier, personalKeys !== false, financial === true);
    checkCompanyConfig(ctx, request.routeOptions.config.companyConfig);
  });
}
