import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { assertCompanyManager, authenticate, authenticateKeyId, type KeyRow } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';
import type { KeyCache } from '../../platform/key-cache.ts';
import { limitAddress } from '../../platform/network.ts';
import { checkGates, checkHttps, checkTier } from '../../platform/pipeline.ts';
import type { RateLimits } from '../../platform/ratelimit.ts';
import { LegacyIdParam, LegacySubscribe, LegacySubscription, LegacyToken } from './legacy-webhooks.schemas.ts';
import * as service from './legacy-webhooks.service.ts';

export interface LegacyOptions {
  config: Config;
  db: Db;
  limits: RateLimits;
  keyCache?: KeyCache<KeyRow>;
}

// The auth scheme name is case-insensitive (RFC 9110 section 11.1).
const BEARER = /^Bearer +(\S+)$/i;

/** The v3 pipeline's checks, in its order, for a caller known by its key pair (token route) or its token. */
async function authorize(opts: LegacyOptions, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  checkHttps(opts.config, request);
  await opts.limits.consumeAddress(limitAddress(opts.config.trustProxy, request));
  const ctx = request.routeOptions.config.legacyTokenExchange
    ? await authenticate(opts.db, request, opts.keyCache)
    : await fromToken(opts.db, request);
  request.ctx = ctx;
  checkGates(ctx, request);
  await opts.limits.consumeKey(request.method === 'GET' ? 'read' : 'write', `${ctx.companyId}:${ctx.key.id}`, reply);
  checkTier(ctx, 'admin', true);
  assertCompanyManager(ctx, 'Webhook management');
}

async function fromToken(db: Db, request: FastifyRequest) {
  const header = request.headers.authorization;
  if (!header)
    throw new AppError('MISSING_AUTH', 'Authorization: Bearer <token> is required (POST /api/v1.0/auth/token)');
  const token = BEARER.exec(header)?.[1] ?? '';
  const { companyId, keyId } = await service.resolveToken(db, token);
  return authenticateKeyId(db, request, companyId, keyId);
}

/**
 * The frozen legacy v1.0 webhook engine (docs/decisions/0035): outside v3 and its OpenAPI document, with its own
 * token authentication; writes still run in one transaction with their audit row (the request transaction).
 */
export async function legacyRoutes(fastify: FastifyInstance, opts: LegacyOptions) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onRequest', async (request, reply) => authorize(opts, request, reply));
  const config = { tier: 'admin' as const, ownAuth: true, activity: 'legacy_webhook' };

  app.post(
    '/auth/token',
    {
      config: { ...config, activity: 'legacy_auth', legacyTokenExchange: true },
      schema: { hide: true, response: { 200: LegacyToken } },
    },
    async (request) => service.issueToken(request.ctx),
  );

  app.get(
    '/webhooks/subscription',
    { config, schema: { hide: true, response: { 200: Type.Array(LegacySubscription) } } },
    async (request) => service.listSubscriptions(request.ctx),
  );

  app.post(
    '/webhooks/subscription',
    { config, schema: { hide: true, body: LegacySubscribe, response: { 201: LegacySubscription } } },
    async (request, reply) => {
      const created = await service.subscribe(request.ctx, request.body);
      request.recordId = created.id;
      return reply.code(201).send(created);
    },
  );

  app.delete(
    '/webhooks/subscription/:subscription_id',
    { config, schema: { hide: true, params: LegacyIdParam } },
    async (request, reply) => {
      await service.unsubscribe(request.ctx, request.params.subscription_id);
      return reply.code(204).send();
    },
  );
}
