import { Type, type Static, type TSchema } from 'typebox';
import type { FastifyReply, FastifySchema } from 'fastify';
import type { Tier } from './scopes.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Scope tier the key needs. Every v3 route declares one; the scope walk test reads it. */
    tier?: Tier;
    preview?: boolean;
    /** Writes that stay open under a lapsed subscription (e.g. deleting a webhook). */
    allowWhenLapsed?: boolean;
    /** false: personal keys get 403 PERSONAL_KEY_CANNOT_MANAGE_KEYS. */
    personalKeys?: boolean;
    /** Query parameters that are filters: a bad value is 422 INVALID_FILTER_VALUE, not 400. */
    filters?: readonly string[];
    /** Money tier for a list/read that nulls fields instead of refusing. */
    errorCodes?: readonly string[];
  }
}

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable machine-readable code, e.g. NOT_FOUND' }),
      message: Type.String({ description: 'Human-readable explanation' }),
      details: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Extra facts about the error' })),
    }),
  },
  { $id: 'Error', title: 'Error' },
);

export const Warning = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    index: Type.Optional(Type.Integer({ description: 'Position in a bulk request' })),
  },
  { title: 'Warning' },
);

export const Single = <T extends TSchema>(record: T) =>
  Type.Object({ data: record, warnings: Type.Optional(Type.Array(Warning)) });

export const OffsetOrCursorList = <T extends TSchema>(record: T) =>
  Type.Object({
    data: Type.Array(record),
    meta: Type.Object({
      total: Type.Optional(Type.Union([Type.Integer(), Type.Literal('10000+')], { description: 'Offset mode only; "10000+" past 10000' })),
      limit: Type.Integer(),
      offset: Type.Optional(Type.Integer({ description: 'Offset mode only' })),
      has_more: Type.Boolean(),
      next_cursor: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Opaque cursor for the next page (keyset); null on the last page' })),
    }),
  });

export const IdParam = (name: string) =>
  Type.Object({ [name]: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Record id' }) });

/** Codes every authenticated v3 route can answer, by HTTP status, for the OpenAPI document. */
const COMMON_ERRORS: Record<number, string[]> = {
  400: ['MISSING_COMPANY', 'INVALID_COMPANY', 'VALIDATION_ERROR'],
  401: ['MISSING_AUTH', 'UNAUTHORIZED'],
  403: ['HTTPS_REQUIRED', 'FORBIDDEN', 'PLAN_UPGRADE_REQUIRED'],
  429: ['RATE_LIMIT_EXCEEDED'],
  500: ['INTERNAL_ERROR'],
};

const STATUS_OF: Record<string, number> = {
  NOT_FOUND: 404, STALE_WRITE: 412, PRECONDITION_REQUIRED: 428, INVALID_FILTER_VALUE: 422,
  FINANCIAL_SCOPE_REQUIRED: 403, SUBSCRIPTION_READ_ONLY: 403, PERSONAL_KEY_CANNOT_MANAGE_KEYS: 403, MANAGEMENT_UI_ONLY: 403,
  READ_ONLY: 403,
  WEBHOOKS_COMING_SOON: 503,
};

export function statusOfCode(code: string): number {
  if (STATUS_OF[code]) return STATUS_OF[code];
  if (code.startsWith('INVALID_') || code.startsWith('UNKNOWN_') || code === 'UNSUPPORTED_TYPE') return 400;
  return 409;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RouteSpec<S extends FastifySchema> {
  operationId: string;
  summary: string;
  tags: string[];
  tier: Tier;
  preview?: boolean;
  allowWhenLapsed?: boolean;
  personalKeys?: boolean;
  filters?: readonly string[];
  /** Route-specific error codes beyond the common ones. */
  errors?: readonly string[];
  description?: string;
  schema: S;
}

function errorResponses(tier: Tier, errors: readonly string[], write: boolean) {
  const byStatus = new Map<number, Set<string>>();
  const add = (status: number, code: string) => byStatus.set(status, (byStatus.get(status) ?? new Set()).add(code));
  if (tier !== 'none' && tier !== 'operator') for (const [status, codes] of Object.entries(COMMON_ERRORS)) codes.forEach((c) => add(Number(status), c));
  if (tier === 'operator') add(401, 'UNAUTHORIZED');
  if (write) add(403, 'SUBSCRIPTION_READ_ONLY');
  if (tier === 'financials') add(403, 'FINANCIAL_SCOPE_REQUIRED');
  for (const code of errors) add(statusOfCode(code), code);
  const out: Record<number, TSchema> = {};
  for (const [status, codes] of byStatus) out[status] = Type.Ref('Error', { description: [...codes].sort().join(', ') });
  return out;
}

/**
 * One declaration per route: the OpenAPI operation, the access rules the platform enforces
 * (config), and the error codes the document lists all come from here, so they cannot drift.
 */
export function route<S extends FastifySchema, M extends HttpMethod>(method: M, url: string, spec: RouteSpec<S>) {
  const write = method !== 'GET';
  const response = { ...(spec.schema.response as Record<number, TSchema>), ...errorResponses(spec.tier, spec.errors ?? [], write) };
  return {
    method,
    url,
    schema: {
      ...spec.schema,
      response,
      operationId: spec.operationId,
      summary: spec.summary,
      description: spec.description,
      tags: spec.tags,
      'x-scope': spec.tier,
      'x-preview': spec.preview ?? false,
      'x-error-codes': [...(spec.errors ?? [])],
    } as S,
    config: {
      tier: spec.tier,
      preview: spec.preview ?? false,
      allowWhenLapsed: spec.allowWhenLapsed ?? false,
      personalKeys: spec.personalKeys ?? true,
      filters: spec.filters ?? [],
      errorCodes: spec.errors ?? [],
    },
  };
}

/** A single-record envelope; sets the ETag (from updated_at) that If-Match later carries. */
/**
 * The legacy `X-Service-Warning` header, kept for one deprecation cycle next to `warnings[]` with the same
 * content (the array as JSON, non-ASCII escaped so it is a valid header value).
 */
export function withWarnings<B extends object>(reply: FastifyReply, body: B, warnings?: Array<Static<typeof Warning>>): B & { warnings?: Array<Static<typeof Warning>> } {
  if (!warnings || warnings.length === 0) return body;
  const json = JSON.stringify(warnings).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  reply.header('X-Service-Warning', json);
  return { ...body, warnings };
}

export function single<T extends object>(reply: FastifyReply, record: T, status = 200, warnings?: Array<Static<typeof Warning>>) {
  const updatedAt = (record as { updated_at?: unknown }).updated_at;
  if (typeof updatedAt === 'string') reply.header('ETag', `"${updatedAt}"`);
  reply.code(status);
  return withWarnings(reply, { data: record }, warnings);
}

/** 204 with no body (deletes). */
export function noContent(reply: FastifyReply) {
  return (reply.code(204) as FastifyReply).send();
}
