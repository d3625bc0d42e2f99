import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import { readIfMatch, requireIfMatch } from '../../platform/preconditions.ts';
import {
  ClientMonitorCreate,
  ClientMonitorListQuery,
  CLIENT_MONITOR_FILTERS,
  Monitor,
  MonitorCreate,
  MonitorListQuery,
  MonitorUpdate,
  MONITOR_FILTERS,
  MONITOR_MONEY,
} from './monitors.schemas.ts';
import * as service from './monitors.service.ts';

const tags = ['Monitors'];
const Params = IdParam('monitor_id');
const ClientParams = IdParam('client_id');
const OVERLAP =
  'An active monitor of the same client and type whose band overlaps gives warning MONITOR_OVERLAP ' +
  '(also in the legacy X-Service-Warning header).';

const validId = (value: number) => Number.isInteger(value) && value >= 1 && value <= 2147483647;

/** If-Match read when the service asks for it (after the 404): required, or honoured when sent. */
const ifMatchOf =
  (request: FastifyRequest): service.IfMatch =>
  (required) =>
    required ? requireIfMatch(request) : readIfMatch(request);

/** The path's record is looked up before the body is validated: another company's id is 404 whatever the body. */
async function pathFirst(request: FastifyRequest): Promise<void> {
  const params = request.params as Record<string, unknown>;
  const monitorId = Number(params.monitor_id);
  const clientId = Number(params.client_id);
  if (params.monitor_id !== undefined && validId(monitorId)) await service.getMonitor(request.ctx, monitorId);
  if (params.client_id !== undefined && validId(clientId)) await service.assertClient(request.ctx, clientId);
}

/**
 * Preview resource; every route is financial (reads too): read, write and personal keys get 403, except PATCH, whose
 * fields but the thresholds are write-tier (spec table, decision 0049).
 */
export default async function monitorRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const common = { tags, tier: 'financials', preview: true } as const;

  app.route({
    ...route('GET', '/monitors', {
      ...common,
      operationId: 'listMonitors',
      summary: 'List monitors',
      filters: MONITOR_FILTERS,
      schema: { querystring: MonitorListQuery, response: { 200: OffsetOrCursorList(Monitor) } },
    }),
    handler: async (request) => service.listMonitors(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/monitors', {
      idempotent: true,
      ...common,
      operationId: 'createMonitor',
      summary: 'Create a monitor',
      description: `One live monitor per client, type, role_person_id and frequency (409 MONITOR_EXISTS). ${OVERLAP}`,
      errors: ['INVALID_CLIENT', 'INVALID_PERSON', 'MONITOR_EXISTS'],
      schema: { body: MonitorCreate, response: { 201: Single(Monitor) } },
    }),
    handler: async (request, reply) => {
      const { data, warnings } = await service.createMonitor(request.ctx, request.body);
      return single(reply, data, 201, warnings);
    },
  });

  app.route({
    ...route('GET', '/monitors/:monitor_id', {
      ...common,
      operationId: 'getMonitor',
      summary: 'Get a monitor',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(Monitor) } },
    }),
    handler: async (request, reply) => single(reply, await service.getMonitor(request.ctx, request.params.monitor_id)),
  });

  app.route({
    ...route('PATCH', '/monitors/:monitor_id', {
      ...common,
      operationId: 'updateMonitor',
      summary: 'Update a monitor (send only the fields to change)',
      description:
        'value and range_value need an admin key (403 FINANCIAL_SCOPE_REQUIRED) and If-Match; other fields are ' +
        `write-tier and honour If-Match when sent; a key without financials reads the thresholds as null. ${OVERLAP}`,
      tier: 'write',
      financial: true,
      money: MONITOR_MONEY,
      errors: [
        'NOT_FOUND',
        'PRECONDITION_REQUIRED',
        'STALE_WRITE',
        'INVALID_CLIENT',
        'INVALID_PERSON',
        'MONITOR_EXISTS',
      ],
      schema: { params: Params, body: MonitorUpdate, response: { 200: Single(Monitor) } },
    }),
    preValidation: pathFirst,
    handler: async (request, reply) => {
      const id = request.params.monitor_id;
      const { data, warnings } = await service.updateMonitor(request.ctx, id, request.body, ifMatchOf(request));
      return single(reply, data, 200, warnings);
    },
  });

  app.route({
    ...route('DELETE', '/monitors/:monitor_id', {
      ...common,
      operationId: 'deleteMonitor',
      summary: 'Delete a monitor (soft delete; If-Match required)',
      errors: ['NOT_FOUND', 'PRECONDITION_REQUIRED', 'STALE_WRITE'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteMonitor(request.ctx, request.params.monitor_id, ifMatchOf(request));
      return noContent(reply);
    },
  });

  app.route({
    ...route('GET', '/clients/:client_id/monitors', {
      ...common,
      operationId: 'listClientMonitors',
      summary: "List a client's monitors",
      filters: CLIENT_MONITOR_FILTERS,
      errors: ['NOT_FOUND'],
      schema: {
        params: ClientParams,
        querystring: ClientMonitorListQuery,
        response: { 200: OffsetOrCursorList(Monitor) },
      },
    }),
    handler: async (request) => {
      await service.assertClient(request.ctx, request.params.client_id);
      return service.listMonitors(request.ctx, request.query, request.params.client_id);
    },
  });

  app.route({
    ...route('POST', '/clients/:client_id/monitors', {
      idempotent: true,
      ...common,
      operationId: 'createClientMonitor',
      summary: 'Create a monitor for this client',
      description: `One live monitor per client, type, role_person_id and frequency (409 MONITOR_EXISTS). ${OVERLAP}`,
      errors: ['NOT_FOUND', 'INVALID_PERSON', 'MONITOR_EXISTS'],
      schema: { params: ClientParams, body: ClientMonitorCreate, response: { 201: Single(Monitor) } },
    }),
    preValidation: pathFirst,
    handler: async (request, reply) => {
      const clientId = request.params.client_id;
      const { data, warnings } = await service.createMonitor(request.ctx, request.body, clientId);
      return single(reply, data, 201, warnings);
    },
  });
}
