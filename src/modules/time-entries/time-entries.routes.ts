import type { FastifyInstance, FastifySchemaValidationError } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ErrorObject } from 'ajv';
import { Type } from 'typebox';
import { AppError } from '../../platform/errors.ts';
import {
  IdParam,
  noContent,
  OffsetOrCursorList,
  route,
  Single,
  single,
  Warning,
  withWarnings,
} from '../../platform/http.ts';
import { describeErrors } from '../../platform/validation.ts';
import {
  TimeEntry,
  TimeEntryBulk,
  TimeEntryCreate,
  TimeEntryListQuery,
  TimeEntryUpdate,
  TIME_ENTRY_FILTERS,
} from './time-entries.schemas.ts';
import * as service from './time-entries.service.ts';

const tags = ['Time entries'];
const Params = IdParam('time_entry_id');
/**
 * 200 entries with the longest description (10 000 characters) are about 2 MB of ASCII JSON; 4 MB leaves
 * room for accented text and the other fields. Bulks of long descriptions in 3-4-byte scripts or \u-escaped
 * JSON can exceed it (413): they are split into smaller bulks.
 */
const BULK_BODY_LIMIT = 4 * 1024 * 1024;
const BulkResult = Type.Object({ data: Type.Array(TimeEntry), warnings: Type.Optional(Type.Array(Warning)) });

/** A schema error inside `entries` names the refused entry by details.index, like the service's own refusals. */
function bulkSchemaError(errors: FastifySchemaValidationError[], part: string): Error {
  const problems = describeErrors(errors as ErrorObject[], part);
  const match = /^\/entries\/(\d+)(\/|$)/.exec(errors[0]?.instancePath ?? '');
  const details: Record<string, unknown> = { errors: problems };
  if (match) details.index = Number(match[1]);
  return new AppError(
    'VALIDATION_ERROR',
    `Field ${problems[0]?.field ?? part} ${problems[0]?.message ?? 'is invalid'}`,
    details,
  );
}

/** The locked-period rule as the write routes state it (decision 0023, 0050). */
const LOCK_RULE =
  'An entry billed on a finalized invoice, or lying in a period a finalized invoice has billed, is locked: deleting ' +
  'it or changing start, end, duration, billable, task_id or person_id gives 409 TIME_ENTRY_LOCKED, as does ' +
  'creating or moving an entry into such a period. The description stays editable.';

export default async function timeEntryRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/time-entries', {
      operationId: 'listTimeEntries',
      summary: 'List time entries',
      tags,
      tier: 'read',
      filters: TIME_ENTRY_FILTERS,
      schema: { querystring: TimeEntryListQuery, response: { 200: OffsetOrCursorList(TimeEntry) } },
    }),
    handler: async (request) => service.listEntries(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/time-entries', {
      idempotent: true,
      operationId: 'createTimeEntry',
      summary: 'Log time (without end and duration: a running entry)',
      tags,
      tier: 'write',
      errors: ['INVALID_TASK', 'INVALID_PERSON', 'TIMER_ALREADY_RUNNING', 'TIME_ENTRY_LOCKED'],
      schema: { body: TimeEntryCreate, response: { 201: Single(TimeEntry) } },
    }),
    handler: async (request, reply) => {
      const { data, warnings } = await service.createEntry(request.ctx, request.body);
      return single(reply, data, 201, warnings);
    },
  });

  app.route({
    ...route('POST', '/time-entries/bulk', {
      idempotent: true,
      operationId: 'createTimeEntriesBulk',
      summary: 'Log up to 200 time entries at once (all or nothing)',
      tags,
      tier: 'write',
      description:
        'A refused entry writes nothing; error.details.index names it. Warnings carry the index of their entry.',
      errors: ['INVALID_TASK', 'INVALID_PERSON', 'TIMER_ALREADY_RUNNING', 'TIME_ENTRY_LOCKED'],
      schema: { body: TimeEntryBulk, response: { 201: BulkResult } },
    }),
    schemaErrorFormatter: bulkSchemaError,
    bodyLimit: BULK_BODY_LIMIT,
    handler: async (request, reply) => {
      const { data, warnings } = await service.createEntries(request.ctx, request.body.entries);
      reply.code(201);
      return withWarnings(reply, { data }, warnings);
    },
  });

  app.route({
    ...route('GET', '/time-entries/:time_entry_id', {
      operationId: 'getTimeEntry',
      summary: 'Get a time entry',
      tags,
      tier: 'read',
      errors: ['NOT_FOUND'],
      schema: { params: Params, response: { 200: Single(TimeEntry) } },
    }),
    handler: async (request, reply) => single(reply, await service.getEntry(request.ctx, request.params.time_entry_id)),
  });

  app.route({
    ...route('PATCH', '/time-entries/:time_entry_id', {
      operationId: 'updateTimeEntry',
      summary: 'Update a time entry (send only the fields to change)',
      tags,
      tier: 'write',
      description: LOCK_RULE,
      errors: ['NOT_FOUND', 'INVALID_TASK', 'INVALID_PERSON', 'TIMER_ALREADY_RUNNING', 'TIME_ENTRY_LOCKED'],
      schema: { params: Params, body: TimeEntryUpdate, response: { 200: Single(TimeEntry) } },
    }),
    handler: async (request, reply) => {
      const { data, warnings } = await service.updateEntry(request.ctx, request.params.time_entry_id, request.body);
      return single(reply, data, 200, warnings);
    },
  });

  app.route({
    ...route('DELETE', '/time-entries/:time_entry_id', {
      operationId: 'deleteTimeEntry',
      summary: 'Delete a time entry (soft delete)',
      tags,
      tier: 'write',
      description: LOCK_RULE,
      errors: ['NOT_FOUND', 'TIME_ENTRY_LOCKED'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.deleteEntry(request.ctx, request.params.time_entry_id);
      return noContent(reply);
    },
  });
}
