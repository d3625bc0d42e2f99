import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { Topic, TopicCreate, TopicListQuery, TopicUpdate, TOPIC_FILTERS } from './topics.schemas.ts';
import * as service from './topics.service.ts';

const tags = ['Topics'];
const Params = IdParam('topic_id');

export default async function topicRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/topics', {
      operationId: 'listTopics',
      summary: 'List topics',
      tags,
      tier: 'read',
      filters: TOPIC_FILTERS,
      schema: { querystring: TopicListQuery, response: { 200: OffsetOrCursorList(Topic) } },
    }),
    handler: async (request) => service.listTopics(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/topics', {
      idempotent: true,
      operationId: 'createTopic',
      summary: 'Create a topic',
      tags,
      tier: 'write',
      companyConfig: true,
      schema: { body: TopicCreate, response: { 201: Single(Topic) } },
    }),
    handler: async (request, reply) => single(reply, await service.createTopic(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/topics/:topic_id', {
      operationId: 'getTopic',
      summary: 'Get a topic',
      tags,
      tier: 'read',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Topic) } },
    }),
    handler: async (request, reply) => single(reply, await service.getTopic(request.ctx, request.params.topic_id)),
  });

  app.route({
    ...route('PATCH', '/topics/:topic_id', {
      operationId: 'updateTopic',
      summary: 'Update a topic (send only the fields to change)',
      tags,
      tier: 'write',
      companyConfig: true,
      errors: ['NOT_FOUND'],
      schema: { params: Params, body: TopicUpdate, response: { 200: Single(Topic) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateTopic(request.ctx, request.params.topic_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/topics/:topic_id', {
      operationId: 'deleteTopic',
      summary: 'Delete a topic (soft delete)',
      tags,
      tier: 'write',
      companyConfig: true,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteTopic(request.ctx, request.params.topic_id);
      return noContent(reply);
    },
  });
}
