import { Type, type Static, type TSchema } from 'typebox';
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { Tier } from './scopes.ts';
import { ERRORS, type ErrorCode } from './errors.ts';
import { etagOf } from './preconditions.ts';

/** Where API v3 is mounted. */
export const V3_PREFIX = '/api/v3';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Scope tier the key needs. Every v3 route declares one; the scope walk test reads it. */
    tier?: Tier;
    preview?: boolean;
    /** Writes that stay open under a lapsed subscription (e.g. deleting a webhook). */
    allowWhenLapsed?: boolean;
    /**
     * false: key management. Personal keys get 403 PERSONAL_KEY_CANNOT_MANAGE_KEYS, and admin keys acting for a
     * plain member 403 FORBIDDEN (owners and administrators only).
     */
    personalKeys?: boolean;
    /** A write to company-wide configuration: a plain member's personal key gets 403 FORBIDDEN. */
    companyConfig?: boolean;
    /** Query parameters that are filters: a bad value is 422 INVALID_FILTER_VALUE, not 400. */
    filters?: readonly string[];
    /** Route-specific error codes (the OpenAPI document lists them). */
    errorCodes?: readonly string[];
    /** Every error code the route's OpenAPI responses list: the common ones and its own (tests hold answers to it). */
    answers?: readonly string[];
    /** The route's money fields (RouteSpec `money`); field-tier.ts enforces them. */
    money?: MoneyFields;
    /** A route of a financial resource: a personal key is refused whatever the tier (RouteSpec `financial`). */
    financial?: boolean;
    /** A covered path of the spec's idempotency list: Idempotency-Key is honoured. */
    idempotent?: boolean;
    /** The route's plugin authenticates by itself (legacy v1.0 tokens); the v3 pipeline leaves it alone. */
    ownAuth?: boolean;
    /** The route opens no request transaction: its work is other requests, each with its own (POST /mcp). */
    ownTransaction?: boolean;
    /** The legacy token route: authenticated by the key pair (v3 headers), not by a token. */
    legacyTokenExchange?: boolean;
  }
  interface FastifyRequest {
    /** The record a write answered with (set by single()); the audit trail reads it. */
    recordId?: number;
  }
}

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable machine-readable code, e.g. NOT_FOUND' }),
      message: Type.String({ description: 'Human-readable explanation' }),
      details: Type.Optional(
        Type.Record(Type.String(), Type.Unknown(), { description: 'Extra facts about the error' }),
      ),
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

/** A write's result inside the app: what single() answers as { data, warnings }. */
export interface Written<T> {
  data: T;
  warnings: Array<Static<typeof Warning>>;
}

export const Single = <T extends TSchema>(record: T) =>
  Type.Object({ data: record, warnings: Type.Optional(Type.Array(Warning)) });

export const OffsetOrCursorList = <T extends TSchema>(record: T) =>
  Type.Object({
    data: Type.Array(record),
    meta: Type.Object({
      total: Type.Optional(
        Type.Union([Type.Integer(), Type.Literal('10000+')], { description: 'Offset mode only; "10000+" past 10000' }),
      ),
      limit: Type.Integer(),
      offset: Type.Optional(Type.Integer({ description: 'Offset mode only' })),
      has_more: Type.Boolean(),
      next_cursor: Type.Optional(
        Type.Union([Type.String(), Type.Null()], {
          description: 'Opaque cursor for the next page (keyset); null on the last page',
        }),
      ),
    }),
  });

export const IdParam = (name: string) =>
  Type.Object({ [name]: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Record id' }) });

/** Codes every authenticated v3 route can answer, for the OpenAPI document. */
const COMMON_ERRORS: readonly ErrorCode[] = [
  'MISSING_COMPANY',
  'INVALID_COMPANY',
  'VALIDATION_ERROR',
  'MISSING_AUTH',
  'UNAUTHORIZED',
  'HTTPS_REQUIRED',
  'FORBIDDEN',
  'PLAN_UPGRADE_REQUIRED',
  'RATE_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
  'QUERY_TIMEOUT',
  'DATABASE_UNAVAILABLE',
];

const BODY_ERRORS: readonly ErrorCode[] = ['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

/**
 * Codes any route can answer, signed in or not: a handler that fails, a statement cut at its time-out, no database
 * connection to be had (decision 0060).
 */
const EVERY_ROUTE_ERRORS: readonly ErrorCode[] = ['INTERNAL_ERROR', 'QUERY_TIMEOUT', 'DATABASE_UNAVAILABLE'];

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Money fields of a route open below the financials tier (spec Authentication 5): `write`, body fields that need
 * financials (admin keys), refused with 403 FINANCIAL_SCOPE_REQUIRED naming those sent ('settings.currency' names a
 * key of an object field); `read`, fields of the answered record that read as null ([] for lists) without it.
 */
export interface MoneyFields {
  write: readonly string[];
  read?: readonly string[];
}

export interface RouteSpec<S extends FastifySchema> {
  operationId: string;
  summary: string;
  tags: string[];
  tier: Tier;
  /**
   * A POST of the spec's idempotency list (Idempotency 5 and 6): Idempotency-Key is honoured.
   * test/platform/idempotent-paths.test.ts holds the declaring routes to the spec's list.
   */
  idempotent?: boolean;
  preview?: boolean;
  allowWhenLapsed?: boolean;
  personalKeys?: boolean;
  /** Writes company-wide configuration (teams, topics...): refused to a plain member's personal key. */
  companyConfig?: boolean;
  /** Money fields of a route open below financials: written and read only with the financials tier. */
  money?: MoneyFields;
  /**
   * A route of a financial resource (spec Authentication 4) open to a lower tier: personal keys, which never carry
   * financials, get 403 FINANCIAL_SCOPE_REQUIRED on it all the same (Authentication 8).
   */
  financial?: boolean;
  filters?: readonly string[];
  /** Route-specific error codes beyond the common ones (idempotency and list codes are added by themselves). */
  errors?: readonly ErrorCode[];
  /** The audit trail's entity, when not the module's. */
  entity?: string;
  description?: string;
  schema: S;
}

/** Codes a route answers because of its shape: a covered POST, a list query with cursor and filters. */
function implicitErrors(idempotent: boolean, query: TSchema | undefined, filters: readonly string[]): ErrorCode[] {
  const codes: ErrorCode[] = idempotent ? ['IDEMPOTENCY_CONFLICT', 'IDEMPOTENCY_KEY_REUSED'] : [];
  const properties = (query as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  if ('cursor' in properties) codes.push('INVALID_CURSOR');
  if (query && (query as { additionalProperties?: unknown }).additionalProperties === false)
    codes.push('UNKNOWN_FILTER_FIELD');
  if (filters.length > 0) codes.push('INVALID_FILTER_VALUE');
  return codes;
}

/** Every code a route can answer: those of its tier and of any write, then its own. */
function answerableCodes(tier: Tier, errors: readonly ErrorCode[], write: boolean): ErrorCode[] {
  const codes: ErrorCode[] = [];
  const authenticated = tier !== 'none' && tier !== 'operator';
  if (authenticated) codes.push(...COMMON_ERRORS);
  if (tier === 'operator') codes.push('UNAUTHORIZED');
  codes.push(...EVERY_ROUTE_ERRORS);
  if (write) codes.push('SUBSCRIPTION_READ_ONLY');
  // Any write's body is parsed by the framework first: too large, or not JSON (error-handler.ts frameworkError).
  if (write) codes.push(...BODY_ERRORS);
  // A write by a web session without its CSRF token, or from another site.
  if (write && authenticated) codes.push('CSRF_REJECTED');
  return [...new Set([...codes, ...errors])];
}

function errorResponses(answers: readonly ErrorCode[]) {
  const byStatus = new Map<number, Set<string>>();
  for (const code of answers) {
    const status = ERRORS[code];
    byStatus.set(status, (byStatus.get(status) ?? new Set()).add(code));
  }
  const out: Record<number, TSchema> = {};
  for (const [status, codes] of byStatus)
    out[status] = Type.Ref('Error', { description: [...codes].sort().join(', ') });
  return out;
}

/** The query of a write that declares none: no parameter at all. */
const NO_QUERY = Type.Object({}, { additionalProperties: false });

/**
 * A write answers an unknown query parameter with 400 UNKNOWN_FILTER_FIELD rather than ignoring it: an ignored
 * `?dry_run=true` would write for real. Its declared query must be closed too (a mistake found at start).
 */
function writeQuery(method: HttpMethod, url: string, declared: unknown): unknown {
  if (declared === undefined) return NO_QUERY;
  if ((declared as { additionalProperties?: unknown }).additionalProperties !== false)
    throw new Error(`${method} ${url}: a write's querystring schema must set additionalProperties: false`);
  return declared;
}

/** What the platform enforces for a route (pipeline, money fields, idempotency, audit), from its declaration. */
function routeConfig(
  spec: RouteSpec<FastifySchema>,
  errors: readonly ErrorCode[],
  answers: readonly ErrorCode[],
  idempotent: boolean,
) {
  return {
    tier: spec.tier,
    preview: spec.preview ?? false,
    allowWhenLapsed: spec.allowWhenLapsed ?? false,
    personalKeys: spec.personalKeys ?? true,
    companyConfig: spec.companyConfig ?? false,
    financial: spec.tier === 'financials' || spec.financial === true,
    ...(spec.money ? { money: spec.money } : {}),
    filters: spec.filters ?? [],
    errorCodes: errors,
    answers,
    idempotent,
    ...(spec.entity ? { activity: spec.entity } : {}),
  };
}

/**
 * One declaration per route: the OpenAPI operation, the access rules the platform enforces
 * (config), and the error codes the document lists all come from here, so they cannot drift.
 */
export function route<S extends FastifySchema, M extends HttpMethod>(method: M, url: string, spec: RouteSpec<S>) {
  const write = method !== 'GET';
  const idempotent = spec.idempotent === true;
  if (idempotent && method !== 'POST') throw new Error(`${method} ${url}: only a POST can be idempotent`);
  const querystring = write ? writeQuery(method, url, spec.schema.querystring) : spec.schema.querystring;
  const implicit = implicitErrors(idempotent, querystring as TSchema | undefined, spec.filters ?? []);
  if (spec.tier === 'financials' || spec.money || spec.financial) implicit.push('FINANCIAL_SCOPE_REQUIRED');
  const listed = spec.errors?.filter((code) => implicit.includes(code)) ?? [];
  // One place says it: a copy here would stay behind when the route's shape changes.
  if (listed.length > 0)
    throw new Error(`${method} ${url}: errors lists ${listed.join(', ')}, which route() adds itself`);
  const errors = [...new Set([...(spec.errors ?? []), ...implicit])];
  const answers = answerableCodes(spec.tier, errors, write);
  const response = { ...(spec.schema.response as Record<number, TSchema>), ...errorResponses(answers) };
  return {
    method,
    url,
    schema: {
      ...spec.schema,
      ...(querystring === undefined ? {} : { querystring }),
      response,
      operationId: spec.operationId,
      summary: spec.summary,
      description: spec.description,
      tags: spec.tags,
      'x-scope': spec.tier,
      'x-preview': spec.preview ?? false,
      'x-error-codes': errors,
      'x-idempotent': idempotent,
    } as S,
    config: routeConfig(spec, errors, answers, idempotent),
  };
}

/**
 * Bounds of the legacy `X-Service-Warning` header. Node's fetch (undici) and common proxies refuse an answer whose
 * headers pass 8-16 KB in all, after the write has committed; 200 bulk warnings are ~28 KB. So the header carries the
 * first warnings up to both bounds, then one WARNINGS_TRUNCATED entry counting the rest; `warnings[]` keeps them all.
 */
export const WARNING_HEADER_MAX_WARNINGS = 20;
export const WARNING_HEADER_MAX_BYTES = 4096;
/** Room kept for the WARNINGS_TRUNCATED entry (its JSON is ~130 bytes). */
const TRUNCATION_RESERVE = 200;

type WarningRecord = Static<typeof Warning>;
/** JSON with non-ASCII escaped, so it is a valid header value and its length is its size in bytes. */
const asciiJson = (value: unknown) =>
  JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function legacyWarningHeader(warnings: WarningRecord[]): string {
  const parts: string[] = [];
  let bytes = 2;
  for (const [i, warning] of warnings.entries()) {
    if (parts.length === WARNING_HEADER_MAX_WARNINGS) break;
    const part = asciiJson(warning);
    const reserve = i === warnings.length - 1 ? 0 : TRUNCATION_RESERVE;
    if (bytes + part.length + 1 + reserve > WARNING_HEADER_MAX_BYTES) break;
    parts.push(part);
    bytes += part.length + 1;
  }
  const omitted = warnings.length - parts.length;
  if (omitted > 0)
    parts.push(
      asciiJson({
        code: 'WARNINGS_TRUNCATED',
        message: `${omitted} more warning(s) in the body's warnings[]`,
        details: { omitted, total: warnings.length },
      }),
    );
  return `[${parts.join(',')}]`;
}

/**
 * The legacy `X-Service-Warning` header, kept for one deprecation cycle next to `warnings[]`: the same warnings
 * while they fit its bounds (above), else the first of them and a count of the rest.
 */
export function withWarnings<B extends object>(
  reply: FastifyReply,
  body: B,
  warnings?: WarningRecord[],
): B & { warnings?: WarningRecord[] } {
  if (!warnings || warnings.length === 0) return body;
  reply.header('X-Service-Warning', legacyWarningHeader(warnings));
  return { ...body, warnings };
}

/** A single-record envelope; sets the ETag (from updated_at) that If-Match later carries, and notes the record for the audit trail. */
export function single<T extends object>(
  reply: FastifyReply,
  record: T,
  status = 200,
  warnings?: Array<Static<typeof Warning>>,
) {
  const id = (record as { id?: unknown }).id;
  if (typeof id === 'number') reply.request.recordId = id;
  const updatedAt = (record as { updated_at?: unknown }).updated_at;
  if (typeof updatedAt === 'string') reply.header('ETag', etagOf(updatedAt));
  reply.code(status);
  return withWarnings(reply, { data: record }, warnings);
}

/** A path parameter as a valid id, or undefined (a malformed id is left to params validation: 400). */
export const pathId = (request: FastifyRequest, name: string): number | undefined => {
  const id = Number((request.params as Record<string, unknown>)[name]);
  return Number.isInteger(id) && id >= 1 && id <= 2147483647 ? id : undefined;
};

/** 204 with no body (deletes). */
export function noContent(reply: FastifyReply) {
  return (reply.code(204) as FastifyReply).send();
}
