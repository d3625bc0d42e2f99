import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../db/database.ts';
import { writeSideRecords } from './context.ts';

declare module 'fastify' {
  interface FastifyInstance {
    financialEntities: FinancialEntities;
  }
  interface FastifyContextConfig {
    /** Entity name in the audit trail (the module's `entity` unless the route names one); false keeps a write out of it. */
    activity?: string | false;
  }
}

export const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * The audit entities whose reads need the financials tier, noted as their GET routes are registered (invoices,
 * contracts, taxes...). A write is financial when its route needs the tier or it writes one of these, so the
 * trail hides it from exactly the keys that cannot read the resource (rule 4 of Authentication).
 */
export class FinancialEntities {
  private readonly entities = new Set<string>();
  noteRoute(method: string, config: { tier?: string; activity?: string | false }): void {
    if (method === 'GET' && config.tier === 'financials' && config.activity) this.entities.add(config.activity);
  }
  isFinancialWrite(config: { tier?: string }, entity: string): boolean {
    return config.tier === 'financials' || this.entities.has(entity);
  }
}
/** created / updated / deleted, or the operation's own name (complete, reopen, rotate...). */
function actionOf(method: string, url: string): string {
  const segments = url.split('?')[0]!.split('/').filter(Boolean);
  const last = segments[segments.length - 1] ?? '';
  if (method === 'DELETE') return 'deleted';
  if (method === 'PATCH' || method === 'PUT')
    return method === 'PUT' && !/^\d+$/.test(last) ? `${last}_updated` : 'updated';
  return /^\d+$/.test(last) || segments.length <= 3 ? 'created' : last.replace(/-/g, '_');
}

/** The record a write is about: its path id, else the id of the record it answered with (noted by single()). */
function recordIdOf(request: FastifyRequest): number | null {
  const params = request.params as Record<string, unknown> | undefined;
  const fromPath = params ? Object.entries(params).find(([k]) => k.endsWith('_id')) : undefined;
  if (fromPath && typeof fromPath[1] === 'number') return fromPath[1];
  return request.recordId ?? null;
}

/**
 * The audit trail of v3 writes (who, what, when, which fields), recorded for every successful write in one
 * place rather than by each service, in the write's own transaction (tx): it commits with the write or not
 * at all. Replays are not new writes and are not recorded.
 */
export async function recordActivity(tx: Executor, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const config = request.routeOptions.config;
  if (!WRITE_METHODS.has(request.method) || !request.ctx || !config.activity || !config.tier) return;
  if (reply.statusCode < 200 || reply.statusCode >= 300 || reply.getHeader('idempotency-replayed')) return;
  const url = request.routeOptions.url ?? request.url;
  const body =
    request.body && typeof request.body === 'object' && !Array.isArray(request.body)
      ? Object.keys(request.body as object)
      : [];
  const row = {
    company_id: request.ctx.companyId,
    entity: config.activity,
    record_id: recordIdOf(request),
    action: actionOf(request.method, url),
    fields: body.sort(),
    financial: request.server.financialEntities.isFinancialWrite(config, config.activity),
    api_key_id: request.ctx.key.id,
    person_id: request.ctx.actor.personId,
    // A session is a member signed in to the web application; every key is the API.
    source: request.ctx.key.kind === 'session' ? ('web' as const) : ('api' as const),
    method: request.method,
    path: request.url.split('?')[0]!,
    request_id: request.id,
  };
  await writeSideRecords(tx, 'activities', [row]);
}
