import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql, type SelectQueryBuilder } from 'kysely';
import { Type, type TProperties } from 'typebox';
import { AppError } from './errors.ts';
import type { Ctx } from './context.ts';

export const MAX_OFFSET = 10_000;
const PAGING_KEYS = new Set(['limit', 'offset', 'sort', 'cursor']);

export interface ListOptions {
  /** Output field name -> SQL column reference; the first is the default. Columns must be NOT NULL. */
  sortable?: Record<string, string>;
  /** Sorted by this when no `sort` is given (an output field; `-` for descending). */
  defaultSort?: string;
  /** false for offset-only lists (cursor gives 400 INVALID_CURSOR). */
  cursor?: boolean;
  defaultLimit?: number;
}

/** The querystring schema of a list: paging, sort and the list's own filters; anything else is refused. */
export function listQuery<F extends TProperties>(filters: F, options: ListOptions = {}) {
  const paging = {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 200, default: options.defaultLimit ?? 50, description: 'Page size, 1-200' }),
    ),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'Rows to skip (offset mode), 0-10000' }),
    ),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2048, description: 'Opaque keyset cursor from meta.next_cursor' }),
    ),
  };
  const sortable = options.sortable ? Object.keys(options.sortable) : [];
  const sort = sortable.length
    ? {
        sort: Type.Optional(
          Type.String({
            pattern: `^-?(${sortable.join('|')})$`,
            description: `Sort field, prefix - for descending: ${sortable.join(', ')}`,
          }),
        ),
      }
    : {};
  return Type.Object({ ...paging, ...sort, ...filters }, { additionalProperties: false });
}

export interface ListParams {
  limit?: number;
  offset?: number;
  sort?: string;
  cursor?: string;
  [filter: string]: unknown;
}

interface CursorPayload {
  l: string; // list id
  c: string; // company
  s: string; // sort
  f: Record<string, unknown>; // filters
  v: [unknown, number]; // last sort value, last id
}

let cursorSecret = '';
export function setCursorSecret(secret: string): void {
  cursorSecret = secret;
}

function sign(body: string): string {
  return createHmac('sha256', cursorSecret).update(body).digest('base64url').slice(0, 22);
}

function encodeCursor(payload: CursorPayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(body)}`;
}

const invalidCursor = (why: string) => new AppError('INVALID_CURSOR', `The cursor is not valid for this list: ${why}`);

function decodeCursor(raw: string, listId: string, companyId: string): CursorPayload {
  const parts = raw.split('.');
  const [body, mac] = parts;
  if (parts.length !== 2 || !body || !mac) throw invalidCursor('malformed');
  // Compared as bytes: a non-ASCII signature must be refused, not make timingSafeEqual throw.
  const expected = Buffer.from(sign(body));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(expected, given)) throw invalidCursor('signature mismatch');
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as CursorPayload;
  if (payload.l !== listId || payload.c !== companyId) throw invalidCursor('issued for another list');
  return payload;
}

function filtersOf(params: ListParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) if (!PAGING_KEYS.has(key) && value !== undefined) out[key] = value;
  return out;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Resolves the effective filters and sort. Following a cursor with no filters reuses the cursor's;
 * sending different ones with it is refused, since the keyset would no longer describe that list.
 */
export function resolveList(ctx: Ctx, listId: string, input: object, options: ListOptions) {
  const params = input as ListParams;
  let filters = filtersOf(params);
  let sort = params.sort ?? options.defaultSort ?? 'id';
  let after: [unknown, number] | undefined;
  if (params.cursor !== undefined) {
    if (options.cursor === false)
      throw new AppError('INVALID_CURSOR', 'This list is offset-only; cursors are not supported');
    const payload = decodeCursor(params.cursor, listId, ctx.companyId);
    if (Object.keys(filters).length === 0 && params.sort === undefined) ({ f: filters, s: sort } = payload);
    else if (!sameJson(filters, payload.f) || sort !== payload.s)
      throw invalidCursor('filters or sort differ from the ones it was issued for');
    after = payload.v;
  }
  return { filters, sort, after };
}

type AnyQuery = SelectQueryBuilder<any, any, any>;

export interface ListMeta {
  total?: number | '10000+';
  limit: number;
  offset?: number;
  has_more: boolean;
  next_cursor?: string | null;
}

/**
 * Runs a filtered, tenant-scoped query as an offset page or a keyset page.
 * `base` carries FROM, joins and WHERE; `project` adds the output columns.
 */
export async function paginate<R extends Record<string, unknown>>(
  ctx: Ctx,
  spec: {
    listId: string;
    base: AnyQuery;
    idColumn: string;
    project: (q: AnyQuery) => AnyQuery;
    options: ListOptions;
    params: object;
    filters: Record<string, unknown>;
    sort: string;
    after?: [unknown, number];
  },
): Promise<{ data: R[]; meta: ListMeta }> {
  const { options } = spec;
  const params = spec.params as ListParams;
  const limit = params.limit ?? options.defaultLimit ?? 50;
  const descending = spec.sort.startsWith('-');
  const field = descending ? spec.sort.slice(1) : spec.sort;
  const column = field === 'id' ? spec.idColumn : options.sortable?.[field];
  if (!column)
    throw new AppError('VALIDATION_ERROR', `Cannot sort by ${field}`, { reason: 'UNKNOWN_SORT_FIELD', field });
  const direction = descending ? 'desc' : 'asc';
  let query = spec.base;
  if (spec.after) {
    const op = sql.raw(descending ? '<' : '>');
    query = query.where(
      sql<boolean>`(${sql.ref(column)}, ${sql.ref(spec.idColumn)}) ${op} (${spec.after[0]}, ${spec.after[1]})`,
    );
  }
  const offset = spec.after ? 0 : (params.offset ?? 0);
  const page = spec
    .project(query)
    .orderBy(sql.ref(column), direction)
    .orderBy(sql.ref(spec.idColumn), direction)
    .limit(limit + 1)
    .offset(offset);
  const [rows, total] = await Promise.all([
    page.execute() as Promise<R[]>,
    params.cursor === undefined ? countCapped(ctx, spec.base) : Promise.resolve(undefined),
  ]);
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  const nextCursor =
    hasMore && last && options.cursor !== false
      ? encodeCursor({
          l: spec.listId,
          c: ctx.companyId,
          s: spec.sort,
          f: spec.filters,
          v: [sortValue(last[field]), last.id as number],
        })
      : null;
  if (params.cursor !== undefined) return { data, meta: { limit, has_more: hasMore, next_cursor: nextCursor } };
  const meta: ListMeta = { total, limit, offset, has_more: hasMore };
  if (options.cursor !== false) meta.next_cursor = nextCursor;
  return { data, meta };
}

function sortValue(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/** Counting stops at 10,001 rows: past 10,000 the answer is the text "10000+", and the cost stays bounded. */
async function countCapped(ctx: Ctx, base: AnyQuery): Promise<number | '10000+'> {
  const capped = base
    .clearSelect()
    .select(sql.lit(1).as('one'))
    .limit(MAX_OFFSET + 1);
  const row = (await ctx.db
    .selectNoFrom(sql<number>`(select count(*)::int from (${capped}) as capped)`.as('n'))
    .executeTakeFirst()) as { n: number } | undefined;
  const n = row?.n ?? 0;
  return n > MAX_OFFSET ? '10000+' : n;
}

export interface ListPageSpec {
  /** Names the list in its cursors (a cursor of another list is refused). */
  listId: string;
  /** The request's query: paging, sort and filters. */
  params: object;
  options: ListOptions;
  /** FROM, joins and WHERE for the effective filters (a cursor's own filters when it carries them). */
  base: (filters: Record<string, unknown>) => AnyQuery;
  idColumn: string;
  /** Adds the output columns. */
  project: (query: never) => AnyQuery;
}

/** One call for a list: resolves filters and sort (cursor included), then answers the offset or keyset page. */
export async function listPage<R extends Record<string, unknown>>(
  ctx: Ctx,
  spec: ListPageSpec,
): Promise<{ data: R[]; meta: ListMeta }> {
  const { filters, sort, after } = resolveList(ctx, spec.listId, spec.params, spec.options);
  return paginate<R>(ctx, {
    listId: spec.listId,
    base: spec.base(filters),
    idColumn: spec.idColumn,
    project: spec.project as (q: AnyQuery) => AnyQuery,
    options: spec.options,
    params: spec.params,
    filters,
    sort,
    after,
  });
}
