import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';
import { authenticate } from './auth.ts';
import { hasTier, type Tier } from './scopes.ts';
import { isLoopback } from './network.ts';
import type { RateLimits } from './ratelimit.ts';
import type { Ctx } from './context.ts';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function checkHttps(config: Config, request: FastifyRequest): void {
  if (config.requireHttps === 'off' || request.protocol === 'https') return;
  // request.ip, not the socket: behind a trusted local proxy every socket peer is loopback.
  if (config.requireHttps === 'on' && isLoopback(request.ip)) return;
  throw new AppError('HTTPS_REQUIRED', 'Requests must use HTTPS');
}

function checkGates(ctx: Ctx, request: FastifyRequest): void {
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

export function checkTier(ctx: Ctx, tier: Tier, personalKeys: boolean): void {
  if (!personalKeys && ctx.key.kind === 'personal') {
    throw new AppError('PERSONAL_KEY_CANNOT_MANAGE_KEYS', 'Personal keys cannot manage API keys', {
      required_scope: 'admin',
    });
  }
  if (hasTier(ctx.key.scopes, tier)) return;
  if (tier === 'financials') {
    throw new AppError('FINANCIAL_SCOPE_REQUIRED', 'This resource needs the financials tier (carried by admin keys)', {
      required_scope: 'financials',
    });
  }
  throw new AppError('FORBIDDEN', `This operation needs the ${tier} scope`, { required_scope: tier });
}

/**
 * Every v3 request passes the same checks in the spec's order: HTTPS, company header,
 * key, plan and subscription gates, rate limit, scope tier. Validation follows (Fastify).
 */
export function registerPipeline(app: FastifyInstance, deps: { db: Db; config: Config; limits: RateLimits }): void {
  app.decorateRequest('ctx', null as unknown as Ctx);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const { tier, preview } = request.routeOptions.config;
    if (preview) reply.header('X-Api-Preview', 'true');
    if (!tier || tier === 'operator') return;
    checkHttps(deps.config, request);
    await deps.limits.consumeAddress(request.ip);
    if (tier === 'none') return;
    const ctx = await authenticate(deps.db, request);
    request.ctx = ctx;
    checkGates(ctx, request);
    await deps.limits.consumeKey(
      READ_METHODS.has(request.method) ? 'read' : 'write',
      `${ctx.companyId}:${ctx.key.id}`,
      reply,
    );
    checkTier(ctx, tier, request.routeOptions.config.personalKeys !== false);
  });
}
