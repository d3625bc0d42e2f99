import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { route, Single, withWarnings } from '../../platform/http.ts';
import { biShape } from './reports.bi.service.ts';
import {
  BiParams,
  BiQuery,
  Breakdown,
  KpiQuery,
  KpiSummary,
  RefreshQuery,
  RefreshResult,
  Series,
  TimeSummary,
  TimeSummaryQuery,
} from './reports.schemas.ts';
import { refresh } from './reports.refresh.ts';
import * as service from './reports.service.ts';

const tags = ['Reports'];

export default async function reportRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.route({
    ...route('GET', '/reports/kpi-summary', {
      operationId: 'getKpiSummary',
      summary: 'Key figures of a window: hours, revenue, cost, operating profit, billing gap, draft revenue, bi_state',
      description:
        'Readable with the read tier; the money keys read as null without financials. Window: local days in the ' +
        'company time zone, default the current calendar year, at most 366 days.',
      tags,
      tier: 'read',
      schema: { querystring: KpiQuery, response: { 200: Single(KpiSummary) } },
    }),
    handler: async (request, reply) => {
      const { data, warnings } = await service.kpiSummary(request.ctx, request.query);
      return withWarnings(reply, { data }, warnings);
    },
  });

  app.route({
    ...route('GET', '/reports/time-summary', {
      operationId: 'getTimeSummary',
      summary: 'Hours of closed time entries by person, client, project or topic, billable and not',
      description: 'A personal key of a plain member counts only the time entries it can see.',
      tags,
      tier: 'read',
      preview: true,
      schema: { querystring: TimeSummaryQuery, response: { 200: Single(TimeSummary) } },
    }),
    handler: async (request) => service.timeSummary(request.ctx, request.query),
  });

  app.route({
    ...route('GET', '/reports/bi/:shape', {
      operationId: 'getBi',
      summary:
        'BI figures of a window: one metric per month, quarter or year (series) or split by client, person or product (breakdown)',
      description:
        'series takes interval; breakdown takes by (required) and limit. revenue by client, person or product; hours ' +
        'by client or person; cost by person; other pairs: 400 VALIDATION_ERROR (reason UNSUPPORTED_BREAKDOWN). ' +
        'Money metrics (revenue, cost, billing_gap) need financials; hours needs read.',
      tags,
      tier: 'read',
      preview: true,
      errors: ['FINANCIAL_SCOPE_REQUIRED', 'NOT_FOUND'],
      schema: {
        params: BiParams,
        querystring: BiQuery,
        response: { 200: Single(Type.Union([Series, Breakdown])) },
      },
    }),
    handler: async (request, reply) => {
      const { data, warnings } = await biShape(request.ctx, request.params.shape, request.query);
      return withWarnings(reply, { data }, warnings);
    },
  });

  app.route({
    ...route('POST', '/reports/bi/refresh', {
      operationId: 'refreshBi',
      summary: 'Recompute the company’s BI figures now',
      description:
        'Recomputes the KPI snapshots now: the window named by date_from/date_to, else every window read in the ' +
        'last day and the current year. No body (one sent is ignored). Not idempotent: every call recomputes.',
      tags,
      tier: 'admin',
      preview: true,
      schema: { querystring: RefreshQuery, response: { 200: Single(RefreshResult) } },
    }),
    handler: async (request) => ({ data: await refresh(request.ctx, request.query) }),
  });
}
