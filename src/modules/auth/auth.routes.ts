import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { ApiKey, ApiKeyCreate, ApiKeyCreated, ApiKeyListQuery, Me, RotatedKey } from './auth.schemas.ts';
import * as service from './auth.service.ts';

const tags = ['Authentication'];
const Params = IdParam('key_id');
// Key management is admin-only and closed to personal keys whatever their scopes.
const manage = { tags, tier: 'admin', personalKeys: false } as const;

/** single() for records without updated_at: key records carry no ETag (nothing about them takes If-Match). */

export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/auth/keys', {
      ...manage,
      operationId: 'listApiKeys',
      summary: 'List API keys (masked: prefix only)',
      errors: ['PERSONAL_KEY_CANNOT_MANAGE_KEYS'],
      schema: { querystring: ApiKeyListQuery, response: { 200: OffsetOrCursorList(ApiKey) } },
    }),
    handler: async (request) => service.listKeys(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/auth/keys', {
      ...manage,
      operationId: 'createApiKey',
      summary: 'Create an API key (the full key is shown once)',
      errors: ['PERSONAL_KEY_CANNOT_MANAGE_KEYS', 'INVALID_PERSON'],
      schema: { body: ApiKeyCreate, response: { 201: Single(ApiKeyCreated) } },
    }),
    handler: async (request, reply) => single(reply, await service.createKey(request.ctx, request.body), 201),
  });

  app.route({
    ...route('POST', '/auth/keys/:key_id/rotate', {
      ...manage,
      operationId: 'rotateApiKey',
      summary: 'Rotate an API key (the old key stays valid for 24 hours)',
      errors: ['PERSONAL_KEY_CANNOT_MANAGE_KEYS', 'NOT_FOUND', 'KEY_NOT_ROTATABLE'],
      schema: { params: Params, response: { 200: Single(RotatedKey) } },
    }),
    handler: async (request, reply) => single(reply, await service.rotateKey(request.ctx, request.params.key_id)),
  });

  app.route({
    ...route('DELETE', '/auth/keys/:key_id', {
      ...manage,
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key permanently',
      errors: ['PERSONAL_KEY_CANNOT_MANAGE_KEYS', 'NOT_FOUND'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.revokeKey(request.ctx, request.params.key_id);
      return noContent(reply);
    },
  });

  app.route({
    ...route('GET', '/auth/me', {
      operationId: 'getAuthMe',
      summary: 'The company, key and acting person of this request',
      tags,
      tier: 'read',
      schema: { response: { 200: Single(Me) } },
    }),
    handler: async (request, reply) => single(reply, await service.me(request.ctx)),
  });
}
