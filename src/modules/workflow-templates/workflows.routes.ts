import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import type { ErrorCode } from '../../platform/errors.ts';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { Job } from '../jobs/index.ts';
import {
  ApplyBody,
  MasterListQuery,
  MasterTask,
  MasterTaskCreate,
  MasterTaskUpdate,
  PushBody,
  TEMPLATE_FILTERS,
  TemplateListQuery,
  type TemplateInput,
  type WorkflowKind,
} from './workflows.schemas.ts';
import * as service from './workflows.service.ts';

/** What differs between the two engines' routes; the engine behind them is one. */
export interface WorkflowResource {
  kind: WorkflowKind;
  path: string;
  param: string;
  tag: string;
  /** Operation id stem, e.g. WorkflowTemplate. */
  name: string;
  /** Lower-case noun for summaries. */
  noun: string;
  record: TSchema;
  create: TSchema;
  update: TSchema;
  createErrors: ErrorCode[];
}

/**
 * The resource's create and update schemas are picked per engine (TSchema), so the type provider cannot name the
 * body; both engines' schemas validate into these shapes.
 */
type TemplateCreate = TemplateInput & { name: string };

const MASTER_REFERENCES: ErrorCode[] = ['NOT_FOUND'];

/** The resource's routes; each is declared in full (operationId, summary, tier, errors, schemas). */
export function workflowRoutes(resource: WorkflowResource) {
  const { kind, path, param, name, noun } = resource;
  const tags = [resource.tag];
  const Params = IdParam(param);
  const TaskParams = Type.Object({ ...Params.properties, ...IdParam('task_id').properties });
  const idOf = (request: FastifyRequest) => Number((request.params as Record<string, unknown>)[param]);
  /** 404 for an absent or foreign template whatever the body holds; a malformed id is left to validation. */
  const templateFirst = async (request: FastifyRequest) => {
    const id = idOf(request);
    if (Number.isInteger(id) && id >= 1 && id <= 2147483647) await service.getTemplate(request.ctx, kind, id);
  };
  const one = `${path}/:${param}`;
  /** A push needs no body: none sent reads as {} (every applied client). */
  const bodyOptional = async (request: FastifyRequest) => {
    request.body ??= {};
  };

  return async function routes(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    // The audit trail names the engine's entity (workflow_template or project_workflow).
    const common = { tags, preview: true, entity: kind };

    app.route({
      ...route('GET', path, {
        ...common,
        operationId: `list${name}s`,
        summary: `List ${noun}s`,
        tier: 'read',
        filters: TEMPLATE_FILTERS,
        errors: [],
        schema: { querystring: TemplateListQuery, response: { 200: OffsetOrCursorList(resource.record) } },
      }),
      handler: async (request) => service.listTemplates(request.ctx, kind, request.query),
    });

    app.route({
      ...route('POST', path, {
        idempotent: true,
        ...common,
        operationId: `create${name}`,
        summary: `Create a ${noun}`,
        tier: 'write',
        companyConfig: true,
        errors: resource.createErrors,
        schema: { body: resource.create, response: { 201: Single(resource.record) } },
      }),
      handler: async (request, reply) =>
        single(reply, await service.createTemplate(request.ctx, kind, request.body as TemplateCreate), 201),
    });

    app.route({
      ...route('GET', one, {
        ...common,
        operationId: `get${name}`,
        summary: `Get a ${noun}`,
        tier: 'read',
        errors: ['NOT_FOUND'],
        schema: { params: Params, response: { 200: Single(resource.record) } },
      }),
      handler: async (request, reply) => single(reply, await service.getTemplate(request.ctx, kind, idOf(request))),
    });

    app.route({
      ...route('PATCH', one, {
        ...common,
        operationId: `update${name}`,
        summary: `Update a ${noun} (send only the fields to change)`,
        tier: 'write',
        companyConfig: true,
        errors: ['NOT_FOUND', ...resource.createErrors],
        schema: { params: Params, body: resource.update, response: { 200: Single(resource.record) } },
      }),
      preValidation: templateFirst,
      handler: async (request, reply) =>
        single(reply, await service.updateTemplate(request.ctx, kind, idOf(request), request.body as TemplateInput)),
    });

    app.route({
      ...route('DELETE', one, {
        ...common,
        operationId: `delete${name}`,
        summary: `Delete a ${noun} (soft delete); tasks already applied stay`,
        tier: 'write',
        companyConfig: true,
        errors: ['NOT_FOUND'],
        schema: { params: Params, response: { 204: Type.Null() } },
      }),
      handler: async (request, reply) => {
        await service.deleteTemplate(request.ctx, kind, idOf(request));
        return noContent(reply);
      },
    });

    app.route({
      ...route('GET', `${one}/tasks`, {
        ...common,
        operationId: `list${name}Tasks`,
        summary: `List the master tasks of a ${noun}`,
        tier: 'read',
        errors: ['NOT_FOUND'],
        schema: { params: Params, querystring: MasterListQuery, response: { 200: OffsetOrCursorList(MasterTask) } },
      }),
      handler: async (request) => service.listMasterTasks(request.ctx, kind, idOf(request), request.query),
    });

    app.route({
      ...route('POST', `${one}/tasks`, {
        idempotent: true,
        ...common,
        operationId: `create${name}Task`,
        summary: `Add a master task to a ${noun} (fires no events; push propagates it)`,
        tier: 'write',
        companyConfig: true,
        errors: MASTER_REFERENCES,
        schema: { params: Params, body: MasterTaskCreate, response: { 201: Single(MasterTask) } },
      }),
      preValidation: templateFirst,
      handler: async (request, reply) =>
        single(reply, await service.addMasterTask(request.ctx, kind, idOf(request), request.body), 201),
    });

    app.route({
      ...route('PATCH', `${one}/tasks/:task_id`, {
        ...common,
        operationId: `update${name}Task`,
        summary: `Change a master task of a ${noun} (push propagates it)`,
        tier: 'write',
        companyConfig: true,
        errors: MASTER_REFERENCES,
        schema: { params: TaskParams, body: MasterTaskUpdate, response: { 200: Single(MasterTask) } },
      }),
      preValidation: templateFirst,
      handler: async (request, reply) =>
        single(
          reply,
          await service.updateMasterTask(request.ctx, kind, idOf(request), request.params.task_id, request.body),
        ),
    });

    app.route({
      ...route('DELETE', `${one}/tasks/:task_id`, {
        ...common,
        operationId: `delete${name}Task`,
        summary: `Delete a master task of a ${noun} (fires no events)`,
        tier: 'write',
        companyConfig: true,
        errors: ['NOT_FOUND'],
        schema: { params: TaskParams, response: { 204: Type.Null() } },
      }),
      handler: async (request, reply) => {
        await service.deleteMasterTask(request.ctx, kind, idOf(request), request.params.task_id);
        return noContent(reply);
      },
    });

    app.route({
      ...route('POST', `${one}/apply`, {
        idempotent: true,
        ...common,
        operationId: `apply${name}`,
        summary: `Apply a ${noun} to clients in a background job`,
        description: 'Answers 202 with the queued job; follow it at GET /jobs/{job_id}.',
        tier: 'write',
        errors: ['NOT_FOUND', 'INVALID_CLIENT'],
        schema: { params: Params, body: ApplyBody, response: { 202: Single(Job) } },
      }),
      preValidation: templateFirst,
      handler: async (request, reply) =>
        single(reply, await service.startApply(request.ctx, kind, idOf(request), request.body), 202),
    });

    app.route({
      ...route('POST', `${one}/push`, {
        idempotent: true,
        ...common,
        operationId: `push${name}`,
        summary: `Propagate a ${noun}'s master-task changes to the clients it was applied to (background job)`,
        description: 'Answers 202 with the queued job; follow it at GET /jobs/{job_id}.',
        tier: 'write',
        companyConfig: true,
        errors: ['NOT_FOUND'],
        schema: { params: Params, body: PushBody, response: { 202: Single(Job) } },
      }),
      preValidation: [templateFirst, bodyOptional],
      handler: async (request, reply) =>
        single(reply, await service.startPush(request.ctx, kind, idOf(request), request.body), 202),
    });
  };
}
