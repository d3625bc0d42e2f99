import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../../db/database.ts';
import type { Config } from '../../config.ts';
import { AppError } from '../../platform/errors.ts';
import type { Registry } from '../../platform/modules.ts';
import { limitAddress } from '../../platform/network.ts';
import { checkHttps } from '../../platform/pipeline.ts';
import type { RateLimits } from '../../platform/ratelimit.ts';
import {
  addMember,
  Company,
  CompanyCreate,
  CompanyCreated,
  CompanyUpdate,
  createCompany,
  MemberAdd,
  updateCompany,
} from '../companies/index.ts';
import { operatorHealthRoutes } from './operator.health.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();
// The auth scheme name is case-insensitive (RFC 9110 section 11.1).
const BEARER = /^Bearer +(\S+)$/i;
const CompanyParams = Type.Object({ company_id: Type.String({ format: 'uuid' }) });

/**
 * Bearer token check in constant time; the whole operator API is absent (404) without a configured token.
 * The token is the most powerful credential there is, so it gets the same HTTPS rule and per-address
 * ceiling as v3 keys, and an address that keeps guessing is shut out (429) for the rest of the minute.
 */
async function authorize(config: Config, limits: RateLimits, request: FastifyRequest): Promise<void> {
  if (!config.operatorToken) throw new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`);
  checkHttps(config, request);
  const address = limitAddress(config.trustProxy, request);
  await limits.consumeAddress(address);
  await limits.refuseBlockedOperator(address);
  const token = BEARER.exec(request.headers.authorization ?? '')?.[1] ?? '';
  if (token && timingSafeEqual(digest(token), digest(config.operatorToken))) return;
  await limits.countOperatorFailure(address);
  throw new AppError('UNAUTHORIZED', 'A valid operator token is required');
}

/** Platform administration; not part of v3 and not in its OpenAPI document. */
export async function operatorRoutes(
  fastify: FastifyInstance,
  opts: { config: Config; db: Db; registry: Registry; limits: RateLimits },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.addHook('onRequest', async (request) => authorize(opts.config, opts.limits, request));
  const config = { tier: 'operator' as const };

  app.post(
    '/companies',
    { config, schema: { hide: true, body: CompanyCreate, response: { 201: CompanyCreated } } },
    async (request, reply) => reply.code(201).send(await createCompany(opts.db, request.body, opts.registry.seeders)),
  );

  app.patch(
    '/companies/:company_id',
    { config, schema: { hide: true, params: CompanyParams, body: CompanyUpdate, response: { 200: Company } } },
    async (request) => updateCompany(opts.db, request.params.company_id, request.body),
  );

  app.post(
    '/companies/:company_id/members',
    {
      config,
      schema: {
        hide: true,
        params: CompanyParams,
        body: MemberAdd,
        response: { 201: Type.Object({ person_id: Type.Integer(), member_id: Type.Integer() }) },
      },
    },
    async (request, reply) => reply.code(201).send(await addMember(opts.db, request.params.company_id, request.body)),
  );

  await app.register(operatorHealthRoutes, { db: opts.db });
}
