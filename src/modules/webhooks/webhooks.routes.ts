import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, type ErrorCode } from '../../platform/errors.ts';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import type { ModuleRouteOptions } from '../../platform/modules.ts';
import {
  CatalogueEntry,
  Delivery,
  DeliveryListQuery,
  DELIVERY_FILTERS,
  eventSchemas,
  Example,
  ReplayParams,
  ReplayQueued,
  Webhook,
  WebhookWithSecret,
  WEBHOOK_FILTERS,
} from './webhooks.schemas.ts';
import * as service from './webhooks.service.ts';

const tags = ['Webhooks'];
const Params = IdParam('webhook_id');
// Admin tier: personal keys never hold admin, so they are refused with 403 FORBIDDEN.
const manage = { tags, tier: 'admin', errors: ['WEBHOOKS_COMING_SOON'] } as const;
const withErrors = (...codes: ErrorCode[]): ErrorCode[] => [...manage.errors, ...codes];

export default async function webhookRoutes(fastify: FastifyInstance, { registry }: ModuleRouteOptions) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { enabled, allowPrivate } = fastify.config.webhooks;
  // A refused address's details (what a name resolved to) go to the request log, not to the caller.
  const urlPolicy = (request: FastifyRequest) => ({
    allowPrivate,
    log: (detail: Record<string, unknown>, message: string) => request.log.warn(detail, message),
  });
  const { WebhookCreate, WebhookListQuery, WebhookUpdate, ExampleQuery } = eventSchemas(registry.eventNames);
  const sources = { samples: registry.samples, shapes: registry.eventShapes };

  // After authentication and the scope check: a deployment without webhooks says so to its callers.
  app.addHook('onRequest', async () => {
    if (!enabled)
      throw new AppError(
        'WEBHOOKS_COMING_SOON',
        'Webhook management is not enabled for this deployment yet; no events are delivered',
      );
  });

  app.route({
    ...route('GET', '/webhooks', {
      ...manage,
      operationId: 'listWebhooks',
      summary: 'List webhook subscriptions',
      filters: WEBHOOK_FILTERS,
      errors: withErrors(),
      schema: { querystring: WebhookListQuery, response: { 200: OffsetOrCursorList(Webhook) } },
    }),
    handler: async (request) => service.listWebhooks(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/webhooks', {
      ...manage,
      operationId: 'createWebhook',
      summary: 'Subscribe a URL to one event (the signing secret is shown once)',
      description:
        'One subscription is one event to one URL; the same pair twice delivers twice. The URL must be public https: a host resolving to a private, loopback, link-local or reserved address is refused with 400 VALIDATION_ERROR (details.reason URL_PRIVATE_ADDRESS).',
      errors: withErrors('WEBHOOK_LIMIT_REACHED'),
      schema: { body: WebhookCreate, response: { 201: Single(WebhookWithSecret) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.createWebhook(request.ctx, request.body, urlPolicy(request)), 201),
  });

  app.route({
    ...route('GET', '/webhooks/events', {
      ...manage,
      operationId: 'listWebhookEvents',
      summary: 'The event catalogue: every event name a subscription can take',
      schema: { response: { 200: OffsetOrCursorList(CatalogueEntry) } },
    }),
    handler: async () => {
      const data = service.catalogue(registry.events);
      return { data, meta: { total: data.length, limit: data.length, offset: 0, has_more: false } };
    },
  });

  app.route({
    ...route('GET', '/webhooks/example', {
      ...manage,
      operationId: 'getWebhookExample',
      summary: 'A sample delivery of an event, built by the live delivery code',
      schema: { querystring: ExampleQuery, response: { 200: Example } },
    }),
    handler: async (request) => service.example(request.ctx, request.query.event, sources),
  });

  app.route({
    ...route('GET', '/webhooks/:webhook_id', {
      ...manage,
      operationId: 'getWebhook',
      summary: 'Get a webhook subscription',
      errors: withErrors('NOT_FOUND'),
      schema: { params: Params, response: { 200: Single(Webhook) } },
    }),
    handler: async (request, reply) => single(reply, await service.readWebhook(request.ctx, request.params.webhook_id)),
  });

  app.route({
    ...route('PATCH', '/webhooks/:webhook_id', {
      ...manage,
      operationId: 'updateWebhook',
      summary: 'Change, pause or re-enable a subscription (is_active true clears failure_count)',
      errors: withErrors('NOT_FOUND'),
      schema: { params: Params, body: WebhookUpdate, response: { 200: Single(Webhook) } },
    }),
    handler: async (request, reply) =>
      single(
        reply,
        await service.updateWebhook(request.ctx, request.params.webhook_id, request.body, urlPolicy(request)),
      ),
  });

  app.route({
    ...route('DELETE', '/webhooks/:webhook_id', {
      ...manage,
      operationId: 'deleteWebhook',
      summary: 'Delete a subscription (allowed under a lapsed subscription)',
      allowWhenLapsed: true,
      errors: withErrors('NOT_FOUND'),
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteWebhook(request.ctx, request.params.webhook_id);
      return noContent(reply);
    },
  });

  app.route({
    ...route('POST', '/webhooks/:webhook_id/rotate-secret', {
      ...manage,
      operationId: 'rotateWebhookSecret',
      summary: 'Mint a new signing secret; the old one stops at once',
      errors: withErrors('NOT_FOUND'),
      schema: { params: Params, response: { 200: Single(WebhookWithSecret) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.rotateSecret(request.ctx, request.params.webhook_id)),
  });

  app.route({
    ...route('GET', '/webhooks/:webhook_id/deliveries', {
      ...manage,
      operationId: 'listWebhookDeliveries',
      summary: 'The delivery log: one row per attempt, newest first',
      filters: DELIVERY_FILTERS,
      errors: withErrors('NOT_FOUND'),
      schema: { params: Params, querystring: DeliveryListQuery, response: { 200: OffsetOrCursorList(Delivery) } },
    }),
    handler: async (request) => service.listDeliveries(request.ctx, request.params.webhook_id, request.query),
  });

  app.route({
    ...route('POST', '/webhooks/:webhook_id/deliveries/:event_id/replay', {
      idempotent: true,
      ...manage,
      operationId: 'replayWebhookDelivery',
      summary: 'Send an event to this subscription again (same body id)',
      errors: withErrors('NOT_FOUND', 'DELIVERY_IN_PROGRESS'),
      schema: { params: ReplayParams, response: { 202: Single(ReplayQueued) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.replay(request.ctx, request.params.webhook_id, request.params.event_id), 202),
  });
}
