import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { Id } from '../../platform/fields.ts';
import {
  ContentTemplate,
  ContentTemplateCreate,
  ContentTemplateListQuery,
  ContentTemplateRow,
  ContentTemplateUpdate,
  CONTENT_TEMPLATE_FILTERS,
  RowInput,
  RowPatch,
} from './content-templates.schemas.ts';
import * as service from './content-templates.service.ts';

const tags = ['Content templates'];
const Params = IdParam('content_template_id');
const RowParams = Type.Object({
  content_template_id: Id('Content template id'),
  content_template_row_id: Id('Row id'),
});
/** Preview resource (the spec's "Other preview resources"); writes are company configuration. */
const write = { tags, tier: 'write', preview: true, companyConfig: true } as const;

/** The path's template is looked up before the body is validated: another company's id is 404 whatever the body. */
async function templateFirst(request: FastifyRequest): Promise<void> {
  const id = Number((request.params as Record<string, unknown>).content_template_id);
  if (Number.isInteger(id) && id >= 1 && id <= 2147483647) await service.getTemplate(request.ctx, id);
}

export default async function contentTemplateRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/content-templates', {
      operationId: 'listContentTemplates',
      summary: 'List content templates (with their rows)',
      tags,
      tier: 'write',
      preview: true,
      filters: CONTENT_TEMPLATE_FILTERS,
      schema: { querystring: ContentTemplateListQuery, response: { 200: OffsetOrCursorList(ContentTemplate) } },
    }),
    handler: async (request) => service.listTemplates(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/content-templates', {
      idempotent: true,
      ...write,
      operationId: 'createContentTemplate',
      summary: 'Create a content template, optionally with its rows (one per locale)',
      errors: [],
      schema: { body: ContentTemplateCreate, response: { 201: Single(ContentTemplate) } },
    }),
    handler: async (request, reply) => single(reply, await service.createTemplate(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/content-templates/:content_template_id', {
      operationId: 'getContentTemplate',
      summary: 'Get a content template with its rows',
      tags,
      tier: 'write',
      preview: true,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(ContentTemplate) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getTemplate(request.ctx, request.params.content_template_id)),
  });

  app.route({
    ...route('PATCH', '/content-templates/:content_template_id', {
      ...write,
      operationId: 'updateContentTemplate',
      summary: 'Update a content template (send only the fields to change; rows change through /rows)',
      errors: ['NOT_FOUND'],
      schema: { params: Params, body: ContentTemplateUpdate, response: { 200: Single(ContentTemplate) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateTemplate(request.ctx, request.params.content_template_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/content-templates/:content_template_id', {
      ...write,
      operationId: 'deleteContentTemplate',
      summary: 'Delete a content template (soft delete)',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteTemplate(request.ctx, request.params.content_template_id);
      return noContent(reply);
    },
  });

  app.route({
    ...route('POST', '/content-templates/:content_template_id/rows', {
      idempotent: true,
      ...write,
      operationId: 'upsertContentTemplateRow',
      summary: "Set the template's row for a locale: 201 when the locale had none, 200 when its row was replaced",
      errors: ['NOT_FOUND'],
      schema: {
        params: Params,
        body: RowInput,
        response: { 200: Single(ContentTemplateRow), 201: Single(ContentTemplateRow) },
      },
    }),
    preValidation: templateFirst,
    handler: async (request, reply) => {
      const { row, created } = await service.upsertRow(request.ctx, request.params.content_template_id, request.body);
      return single(reply, row, created ? 201 : 200);
    },
  });

  app.route({
    ...route('PATCH', '/content-templates/:content_template_id/rows/:content_template_row_id', {
      ...write,
      operationId: 'updateContentTemplateRow',
      summary: "Update a row's subject or body (its locale is its identity)",
      errors: ['NOT_FOUND'],
      schema: { params: RowParams, body: RowPatch, response: { 200: Single(ContentTemplateRow) } },
    }),
    handler: async (request, reply) => {
      const { content_template_id: id, content_template_row_id: rowId } = request.params;
      return single(reply, await service.updateRow(request.ctx, id, rowId, request.body));
    },
  });

  app.route({
    ...route('DELETE', '/content-templates/:content_template_id/rows/:content_template_row_id', {
      ...write,
      operationId: 'deleteContentTemplateRow',
      summary: 'Delete a row (soft delete)',
      errors: ['NOT_FOUND'],
      schema: { params: RowParams, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteRow(request.ctx, request.params.content_template_id, request.params.content_template_row_id);
      return noContent(reply);
    },
  });
}
