import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql, type SelectQueryBuilder } from 'kysely';
import { Type, type TInteger, type TObject, type TOptional, type TProperties, type TString } from 'typebox';
import { AppError } from './errors.ts';
import type { Ctx } from './context.ts';
import type { ShapeCache } from './query-cache.ts';

export const MAX_OFFSET = 10_000;
const PAGING_KEYS = new Set(['limit', 'offset', 'sort', 'cursor']);

export interface ListOptions {
  /** Output field name -> SQL column reference; the first is the default. Columns must be NOT NULL. */
  sortable?: Record<string, string>;
  /** Sorted by this when no `sort` is given (an output field; `-` for descending). */
  defaultSort?: string;
  /**
   * true only for the spec's cursor-mode lists (Endpoints, conventions 3). Every other list is offset-only: no
   * next_cursor, and a cursor is 400 INVALID_CURSOR. Offset-only is the default so a new list cannot slip into
   * cursor mode; the route walk compares each list with the spec's set.
   */
  cursor?: boolean;
  defaultLimit?: number;
}

type PagingProperties = {
  limit: TOptional<TInteger>;
  offset: TOptional<TInteger>;
  cursor: TOptional<TString>;
  sort: TOptional<TString>;
};

/** The querystring schema of a list: paging, sort and the list's own filters; anything else is refused. */
export function listQuery<F extends TProperties>(filters: F, options: ListOptions = {}): TObject<PagingProperties & F> {
  const paging = {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 200, default: options.defaultLimit ?? 50, description: 'Page size, 1-200' }),
    ),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'Rows to skip (offset mode), 0-10000' }),
    ),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description:
          options.cursor === true
            ? 'Opaque keyset cursor from meta.next_cursor'
            : 'Not accepted: this list is offset-only (400 INVALID_CURSOR)',
      }),
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
  // `sort` exists only for a list with sortable fields; the type always lists it (optional), or the spread's
  // union would make Static<typeof XListQuery> a bare object and hide the filters from the compiler.
  const properties = { ...paging, ...sort, ...filters } as PagingProperties & F;
  return Type.Object(properties, { additionalProperties: false });
}

/**
 * A list's own filters: its query (the route's Static<typeof XListQuery>) without the paging keys, so a renamed
 * filter fails to compile. A list still typed as a bare `object` gets the untyped record.
 */
export type ListFilters<P> = [keyof P] extends [never]
  ? Record<string, unknown>
  : Omit<P, 'limit' | 'offset' | 'sort' | 'cursor'>;

/** What a page reads of the request's query besides the filters and the sort. */
type Paging = Pick<ListParams, 'limit' | 'offset' | 'cursor'>;

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
export function resolveList<P extends object>(ctx: Ctx, listId: string, input: P, options: ListOptions) {
  const params = input as ListParams;
  let filters = filtersOf(params);
  let sort = params.sort ?? options.defaultSort ?? 'id';
  let after: [unknown, number] | undefined;
  if (params.cursor !== undefined) {
    if (options.cursor !== true)
      throw new AppError('INVALID_CURSOR', 'This list is offset-only; cursors are not supported', {
        reason: 'OFFSET_ONLY',
      });
    const payload = decodeCursor(params.cursor, listId, ctx.companyId);
    if (Object.keys(filters).length === 0 && params.sort === undefined) ({ f: filters, s: sort } = payload);
    else if (!sameJson(filters, payload.f) || sort !== payload.s)
      throw invalidCursor('filters or sort differ from the ones it was issued for');
    after = payload.v;
  }
  // A cursor's filters were this list's own when it was issued (signed, and refused for another list).
  const paging: Paging = { limit: params.limit, offset: params.offset, cursor: params.cursor };
  return { filters: filters as ListFilters<P> & Record<string, unknown>, sort, after, paging };
}

type AnyQuery = SelectQueryBuilder<any, any, any>;

export interface ListMeta {
  total?: number | '10000+';
  limit: number;
  offset?: number;
  has_more: boolean;
  next_cursor?: string | null;
}

interface PageShape {
  column: string;
  idColumn: string;
  descending: boolean;
  keyset: boolean;
  project: (q: AnyQuery) => AnyQuery;
}
/** What a page takes per call: limit + 1, the offset, and the keyset's last sort value and id. */
interface PageValues {
  limit: unknown;
  offset: unknown;
  lastValue: unknown;
  lastId: unknown;
  [filter: string]: unknown;
}

function pageQuery(base: AnyQuery, shape: PageShape, values: PageValues): AnyQuery {
  const direction = shape.descending ? 'desc' : 'asc';
  let query = base;
  if (shape.keyset) {
    const op = sql.raw(shape.descending ? '<' : '>');
    query = query.where(
      sql<boolean>`(${sql.ref(shape.column)}, ${sql.ref(shape.idColumn)}) ${op} (${values.lastValue}, ${values.lastId})`,
    );
  }
  const ordered = shape
    .project(query)
    .orderBy(sql.ref(shape.column), direction)
    .orderBy(sql.ref(shape.idColumn), direction)
    .limit(sql.lit(pageLimit(values.limit)));
  // The first page and every keyset page have no offset; a later offset page's is a parameter (a cached shape's slot).
  return values.offset === 0 ? ordered : ordered.offset(values.offset as number);
}

/**
 * The LIMIT is written into the text, as a validated integer (the list's schema allows 1-200, plus the row that
 * tells has_more): a prepared statement's generic plan prices an unknown LIMIT as a tenth of all rows, and then
 * chose a sort of the whole company over an index walk (docs/decisions/0068).
 */
function pageLimit(limit: unknown): number {
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1 || limit > 1_000)
    throw new Error(`A page's limit must be an integer from 1 to 1000, not ${String(limit)}`);
  return limit;
}

/** Counting stops at 10,001 rows: past 10,000 the answer is the text "10000+", and the cost stays bounded. */
function countQuery(ctx: Ctx, base: AnyQuery) {
  const capped = base
    .clearSelect()
    .select(sql.lit(1).as('one'))
    .limit(sql.lit(MAX_OFFSET + 1));
  return ctx.db.selectNoFrom(sql<number>`(select count(*)::int from (${capped}) as capped)`.as('n'));
}

const capped = (n: number | undefined): number | '10000+' => ((n ?? 0) > MAX_OFFSET ? '10000+' : (n ?? 0));

/**
 * The page and, in offset mode, the capped total, in parallel. A list with cached shapes keys each shape by
 * its own key, the sort, the mode and its filters with numbers left out: numeric filters (ids), the limit,
 * the offset and the keyset values are filled in per call (platform/query-cache.ts).
 */
async function pageRows<R>(ctx: Ctx, spec: PaginateSpec, shape: PageShape, values: PageValues, withCount: boolean) {
  const { filters } = spec;
  if (!spec.cache) {
    const base = spec.base(filters, ctx);
    return Promise.all([
      pageQuery(base, shape, values).execute() as Promise<R[]>,
      withCount ? countQuery(ctx, base).executeTakeFirst() : undefined,
    ]).then(([rows, count]) => ({ rows, total: withCount ? capped(count?.n) : undefined }));
  }
  const numeric = Object.keys(filters).filter((name) => typeof filters[name] === 'number');
  const filterKey = JSON.stringify(Object.entries(filters).map(([k, v]) => [k, typeof v === 'number' ? '#' : v]));
  // The limit is written into the text, and so is an offset of 0 (left out): both are part of the page's key.
  const paging = `${shape.keyset ? 'keyset' : 'offset'}|limit ${values.limit}${values.offset === 0 ? '|first' : ''}`;
  const key = `${spec.cache.key}|${spec.sort}|${filterKey}`;
  const { limit, ...perCall } = values;
  const all = { ...perCall, ...Object.fromEntries(numeric.map((name) => [`filter:${name}`, filters[name]])) };
  const baseOf = (c: Ctx, v: Omit<PageValues, 'limit'>) =>
    spec.base({ ...filters, ...Object.fromEntries(numeric.map((name) => [name, v[`filter:${name}`]])) }, c);
  const page = (c: Ctx, v: typeof all) =>
    pageQuery(baseOf(c, v), shape, { ...v, limit, offset: values.offset === 0 ? 0 : v.offset });
  const [rows, count] = await Promise.all([
    spec.cache.shapes.run(ctx, `${key}|${paging}|page`, all, page) as Promise<R[]>,
    withCount ? spec.cache.shapes.run(ctx, `${key}|count`, all, (c, v) => countQuery(c, baseOf(c, v))) : undefined,
  ]);
  return { rows, total: withCount ? capped((count as Array<{ n: number }>)[0]?.n) : undefined };
}

interface PaginateSpec {
  listId: string;
  base: (filters: Record<string, unknown>, ctx: Ctx) => AnyQuery;
  cache?: ListPageSpec['cache'];
  idColumn: string;
  project: (q: AnyQuery) => AnyQuery;
  options: ListOptions;
  paging: Paging;
  filters: Record<string, unknown>;
  sort: string;
  after?: [unknown, number];
}

/** Runs a filtered, tenant-scoped query as an offset page or a keyset page. */
export async function paginate<R extends Record<string, unknown>>(
  ctx: Ctx,
  spec: PaginateSpec,
): Promise<{ data: R[]; meta: ListMeta }> {
  const { options, paging } = spec;
  const limit = paging.limit ?? options.defaultLimit ?? 50;
  const descending = spec.sort.startsWith('-');
  const field = descending ? spec.sort.slice(1) : spec.sort;
  const column = field === 'id' ? spec.idColumn : options.sortable?.[field];
  if (!column)
    throw new AppError('VALIDATION_ERROR', `Cannot sort by ${field}`, { reason: 'UNKNOWN_SORT_FIELD', field });
  const offset = spec.after ? 0 : (paging.offset ?? 0);
  const shape = {
    column,
    idColumn: spec.idColumn,
    descending,
    keyset: spec.after !== undefined,
    project: spec.project,
  };
  const values = { limit: limit + 1, offset, lastValue: spec.after?.[0], lastId: spec.after?.[1] };
  const { rows, total } = await pageRows<R>(ctx, spec, shape, values, paging.cursor === undefined);
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  const nextCursor =
    hasMore && last && options.cursor === true
      ? encodeCursor({
          l: spec.listId,
          c: ctx.companyId,
          s: spec.sort,
          f: spec.filters,
          v: [sortValue(last[field]), last.id as number],
        })
      : null;
  if (paging.cursor !== undefined) return { data, meta: { limit, has_more: hasMore, next_cursor: nextCursor } };
  const meta: ListMeta = { total, limit, offset, has_more: hasMore };
  if (options.cursor === true) meta.next_cursor = nextCursor;
  return { data, meta };
}

function sortValue(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

export interface ListPageSpec<P extends object = object> {
  /** Names the list in its cursors (a cursor of another list is refused). */
  listId: string;
  /** The request's query: paging, sort and filters (the route's Static<typeof XListQuery>). */
  params: P;
  options: ListOptions;
  /**
   * FROM, joins and WHERE for the effective filters (a cursor's own filters when it carries them). A list
   * with `cache` must build from the ctx it is given here, never the caller's (a shape that closes over the
   * caller's company is refused, and runs uncached).
   */
  base: (filters: ListFilters<P>, ctx: Ctx) => AnyQuery;
  /**
   * Cached shapes (docs/decisions/0044): `key` names every input `base` and `project` read besides the ctx
   * and the filters (e.g. a flag looked up before the list), '' when there is none.
   */
  cache?: { shapes: ShapeCache; key: string };
  idColumn: string;
  /** Adds the output columns. */
  project: (query: never) => AnyQuery;
}

/** One call for a list: resolves filters and sort (cursor included), then answers the offset or keyset page. */
export async function listPage<R extends Record<string, unknown>, P extends object = object>(
  ctx: Ctx,
  spec: ListPageSpec<P>,
): Promise<{ data: R[]; meta: ListMeta }> {
  const { filters, sort, after, paging } = resolveList(ctx, spec.listId, spec.params, spec.options);
  return paginate<R>(ctx, {
    listId: spec.listId,
    // The cache fills numeric filters back in by name; the values keep the types the list's query gave them.
    base: spec.base as PaginateSpec['base'],
    cache: spec.cache,
    idColumn: spec.idColumn,
    project: spec.project as (q: AnyQuery) => AnyQuery,
    options: spec.options,
    paging,
    filters,
    sort,
    after,
  });
}
