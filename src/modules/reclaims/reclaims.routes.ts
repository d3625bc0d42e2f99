import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, OffsetOrCursorList, pathId, route, Single, single } from '../../platform/http.ts';
import { readIfMatch } from '../../platform/preconditions.ts';
import { Reclaim, RECLAIM_FILTERS, ReclaimCreate, ReclaimListQuery, ReclaimUpdate } from './reclaims.schemas.ts';
import * as service from './reclaims.service.ts';

const tags = ['Reclaims'];
const Params = IdParam('reclaim_id');
// Reclaims are a financial resource (Authentication rule 4): every route needs the financials tier.
const access = { tags, tier: 'financials', preview: true } as const;

/**
 * The path's record is looked up before the body is validated, so another tenant's id answers 404 whatever the
 * body holds. A malformed id is left to params validation (400).
 */
async function reclaimFirst(request: FastifyRequest): Promise<void> {
  const id = pathId(request, 'reclaim_id');
  if (id !== undefined) await service.assertReclaimExists(request.ctx, id);
}
async function taskFirst(request: FastifyRequest): Promise<void> {
  const id = pathId(request, 'task_id');
  if (id !== undefined) await service.assertTaskExists(request.ctx, id);
}

export default async function reclaimRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/reclaims', {
      ...access,
      operationId: 'listReclaims',
      summary: 'List reclaims (read-only, offset paging only)',
      filters: RECLAIM_FILTERS,
      schema: { querystring: ReclaimListQuery, response: { 200: OffsetOrCursorList(Reclaim) } },
    }),
    handler: async (request) => service.listReclaims(request.ctx, request.query),
  });

  app.route({
    ...route('GET', '/reclaims/:reclaim_id', {
      ...access,
      operationId: 'getReclaim',
      summary: 'Get a reclaim',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Reclaim) } },
    }),
    handler: async (request, reply) => single(reply, await service.getReclaim(request.ctx, request.params.reclaim_id)),
  });

  app.route({
    ...route('PATCH', '/reclaims/:reclaim_id', {
      ...access,
      operationId: 'updateReclaim',
      summary: "Change a reclaim's note",
      description:
        'Only `note` is writable. Sending `undone_at` gives 409 RECLAIM_UNDO_NOT_SUPPORTED: undo with POST ' +
        '/reclaims/{id}/undo. An If-Match header is honoured when sent (412 when stale).',
      errors: ['NOT_FOUND', 'RECLAIM_UNDO_NOT_SUPPORTED', 'STALE_WRITE'],
      schema: { params: Params, body: ReclaimUpdate, response: { 200: Single(Reclaim) } },
    }),
    preValidation: reclaimFirst,
    handler: async (request, reply) =>
      single(
        reply,
        await service.updateReclaim(request.ctx, request.params.reclaim_id, request.body, readIfMatch(request)),
      ),
  });

  app.route({
    ...route('POST', '/reclaims/:reclaim_id/undo', {
      ...access,
      operationId: 'undoReclaim',
      summary: 'Undo a reclaim: move its time entries back to the source task',
      description:
        'Moves the entries still live on the target task back and sets undone_at (skipped_entry_ids lists the ' +
        'others). 409 RECLAIM_NOT_UNDOABLE with details.reason already_undone, source_task_gone, period_locked ' +
        '(an entry is billed by a created, sent or paid invoice) or in_draft_invoice. Not covered by ' +
        'Idempotency-Key; a repeat answers already_undone. If-Match is honoured when sent.',
      errors: ['NOT_FOUND', 'RECLAIM_NOT_UNDOABLE', 'STALE_WRITE'],
      schema: { params: Params, response: { 200: Single(Reclaim) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.undoReclaim(request.ctx, request.params.reclaim_id, readIfMatch(request))),
  });

  app.route({
    ...route('POST', '/tasks/:task_id/reclaim', {
      ...access,
      entity: 'task',
      operationId: 'reclaimTaskTime',
      summary: "Reclaim a task's time: move its time entries onto another task",
      description:
        'Moves the named time entries of the task (default: all its entries not billed by an invoice) onto ' +
        'target_task_id in one transaction and answers the reclaim (201), which POST /reclaims/{id}/undo reverses. ' +
        'Entries billed by an invoice give 409 TIME_ENTRY_LOCKED (details.reason period_locked or in_draft_invoice).',
      errors: ['NOT_FOUND', 'INVALID_TASK', 'TIME_ENTRY_LOCKED'],
      schema: { params: IdParam('task_id'), body: ReclaimCreate, response: { 201: Single(Reclaim) } },
    }),
    preValidation: taskFirst,
    handler: async (request, reply) =>
      single(reply, await service.createReclaim(request.ctx, request.params.task_id, request.body), 201),
  });
}
