import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import {
  CalendarEntry,
  CalendarEntryCreate,
  CalendarEntryParams,
  CalendarEntryUpdate,
  CalendarListQuery,
  CALENDAR_FILTERS,
} from './calendar.schemas.ts';
import * as service from './calendar.service.ts';

const tags = ['Calendar'];
const Params = CalendarEntryParams;
const preview = true;

export default async function calendarRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/calendar', {
      operationId: 'listCalendarEntries',
      tags,
      tier: 'read',
      preview,
      filters: CALENDAR_FILTERS,
      summary:
        'List calendar entries (offset-only; scope company by default, global for public holidays, all for both)',
      schema: { querystring: CalendarListQuery, response: { 200: OffsetOrCursorList(CalendarEntry) } },
    }),
    handler: async (request) => service.listEntries(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/calendar', {
      idempotent: true,
      operationId: 'createCalendarEntry',
      summary: 'Create a calendar entry (always created in_review)',
      tags,
      tier: 'write',
      preview,
      errors: ['INVALID_PERSON', 'READ_ONLY', 'CALENDAR_APPROVAL_UI_ONLY'],
      schema: { body: CalendarEntryCreate, response: { 201: Single(CalendarEntry) } },
    }),
    handler: async (request, reply) => single(reply, await service.createEntry(request.ctx, request.body), 201),
  });

  app.route({
    ...route('GET', '/calendar/:calendar_entry_id', {
      operationId: 'getCalendarEntry',
      summary: 'Get a calendar entry (negative ids: global public holidays)',
      tags,
      tier: 'read',
      preview,
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(CalendarEntry) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.getEntry(request.ctx, request.params.calendar_entry_id)),
  });

  app.route({
    ...route('PATCH', '/calendar/:calendar_entry_id', {
      operationId: 'updateCalendarEntry',
      summary: 'Update a calendar entry (send only the fields to change)',
      tags,
      tier: 'write',
      preview,
      errors: ['NOT_FOUND', 'INVALID_PERSON', 'READ_ONLY', 'CALENDAR_APPROVAL_UI_ONLY'],
      schema: { params: Params, body: CalendarEntryUpdate, response: { 200: Single(CalendarEntry) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.updateEntry(request.ctx, request.params.calendar_entry_id, request.body)),
  });

  app.route({
    ...route('DELETE', '/calendar/:calendar_entry_id', {
      operationId: 'deleteCalendarEntry',
      tags,
      tier: 'write',
      preview,
      errors: ['NOT_FOUND', 'READ_ONLY', 'CALENDAR_APPROVAL_UI_ONLY'],
      summary:
        'Delete a calendar entry (soft delete); holidays and approved vacation/flextime entries cannot be deleted',
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteEntry(request.ctx, request.params.calendar_entry_id);
      return noContent(reply);
    },
  });
}
