// Resource helpers built at run time from the generated operation table, one mechanism for every resource:
// `/clients` GET/POST → list/create, `/clients/{id}` GET/PATCH/PUT/DELETE → get/update/replace/delete,
// `/invoices/{id}/mark-paid` → invoices.markPaid(invoice), `/invoices/{id}/rows` (a collection) →
// invoices.rows(invoice).list(), `/tasks/bulk-action` → tasks.bulkAction(body). Nothing here names a resource.
import { OPERATIONS, type OperationInfo } from './operations.ts';
import { send, type TransportOptions } from './transport.ts';

/** A record the caller read, or its id. A record carries its version, so writes send If-Match from it. */
export type Ref = number | string | { id: number | string; updated_at?: string | null };

export interface CallOptions {
  /**
   * Overrides the If-Match a record would give. '*' (whatever the current version) is honoured only where If-Match
   * is optional; a write that requires it answers 428 to '*'.
   */
  ifMatch?: string;
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

/** ETags of records this SDK read, kept beside the record without changing its shape. */
const etags = new WeakMap<object, string>();

function remember<T>(value: T, etag: string | null): T {
  if (etag && value && typeof value === 'object') etags.set(value, etag);
  return value;
}

/** The version a write should carry: an explicit one, the ETag the record came with, or its updated_at. */
function versionOf(ref: Ref, options: CallOptions | undefined): string | undefined {
  if (options?.ifMatch !== undefined) return options.ifMatch;
  if (typeof ref !== 'object') return undefined;
  return etags.get(ref) ?? (ref.updated_at ? `"${ref.updated_at}"` : undefined);
}

const idOf = (ref: Ref) => (typeof ref === 'object' ? ref.id : ref);
const camel = (segment: string) => segment.replace(/[-_](\w)/g, (_m, c: string) => c.toUpperCase());

/** Fills the template's {params} in order with the bound ids. */
function fill(template: string, ids: Array<number | string>): string {
  let i = 0;
  return template.replace(/\{[^}]+\}/g, () => encodeURIComponent(String(ids[i++])));
}

type Envelope = { data: unknown; meta?: { has_more?: boolean; next_cursor?: string | null; limit?: number } };

export interface Caller {
  opts: TransportOptions;
  call(op: OperationInfo, ids: Array<number | string>, init: CallInit): Promise<unknown>;
}

interface CallInit {
  query?: Record<string, unknown>;
  body?: unknown;
  ref?: Ref;
  options?: CallOptions;
}

/** One operation, answering the parsed body (undefined for 204) and remembering a single record's ETag. */
export function caller(opts: TransportOptions): Caller {
  return {
    opts,
    async call(op, ids, init) {
      const response = await send(opts, op.method, fill(op.path, ids), {
        query: init.query,
        body: init.body,
        headers: init.options?.headers,
        idempotencyKey: init.options?.idempotencyKey,
        ifMatch: init.ref === undefined ? init.options?.ifMatch : versionOf(init.ref, init.options),
      });
      if (response.status === 204) return undefined;
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('json')) return response;
      const body = (await response.json()) as Envelope;
      if (body && typeof body === 'object' && !Array.isArray(body.data))
        remember(body.data, response.headers.get('etag'));
      return body;
    },
  };
}

/** Every page's records: follows meta.next_cursor (keyset lists) or steps the offset (offset-only lists). */
async function* iterate(c: Caller, op: OperationInfo, ids: Array<number | string>, query: Record<string, unknown>) {
  let params: Record<string, unknown> = { ...query };
  for (;;) {
    const page = (await c.call(op, ids, { query: params })) as Envelope;
    for (const record of page.data as unknown[]) yield record;
    if (!page.meta?.has_more) return;
    if (page.meta.next_cursor) params = { cursor: page.meta.next_cursor, limit: query.limit };
    else params = { ...params, offset: Number(params.offset ?? 0) + (page.meta.limit ?? (page.data as []).length) };
  }
}

const dataOf = async (p: Promise<unknown>) => ((await p) as Envelope | undefined)?.data;

/** The literal segments right after `base` in the operations' paths (`rows` of `/invoices/{id}/rows/...`). */
function literalTails(ops: readonly OperationInfo[], base: string): string[] {
  const tails = ops.flatMap((op) =>
    op.path.startsWith(`${base}/`) ? (op.path.slice(base.length).match(/^\/([^/{}]+)(?=\/|$)/)?.[1] ?? []) : [],
  );
  return [...new Set(tails)];
}

/** The operations directly under `prefix` (a path template), grouped by what they are to the resource. */
function childrenOf(prefix: string) {
  const below = OPERATIONS.filter((op) => op.path.startsWith(`${prefix}/`) || op.path === prefix);
  const at = (path: string, method: string) => below.find((op) => op.path === path && op.method === method);
  // The item template, even when only its actions exist (`/webhooks/{id}/deliveries/{event_id}/replay`).
  const param = below.map((op) => op.path.slice(prefix.length).match(/^\/\{[^}/]+\}/)?.[0]).find(Boolean);
  const item = param ? `${prefix}${param}` : undefined;
  const tails = (base: string) => literalTails(below, base);
  return { below, at, item, tails };
}

/** A resource at a collection path template, with the ids of its parents already bound. */
export function buildResource(c: Caller, prefix: string, bound: Array<number | string> = []): Record<string, unknown> {
  const { below, at, item, tails } = childrenOf(prefix);
  const out: Record<string, unknown> = {};
  const list = at(prefix, 'GET');
  if (list) {
    out.list = (query: Record<string, unknown> = {}) => iterate(c, list, bound, query);
    out.listPage = (query: Record<string, unknown> = {}) => c.call(list, bound, { query });
  }
  const create = at(prefix, 'POST');
  if (create) out.create = (body: unknown, options?: CallOptions) => dataOf(c.call(create, bound, { body, options }));
  for (const tail of tails(prefix)) {
    if (tail in out) continue;
    out[camel(tail)] = nested(c, `${prefix}/${tail}`, bound, below);
  }
  if (item) Object.assign(out, itemMethods(c, item, bound, below, at));
  return out;
}

function itemMethods(
  c: Caller,
  item: string,
  bound: Array<number | string>,
  below: readonly OperationInfo[],
  at: (path: string, method: string) => OperationInfo | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const ids = (ref: Ref) => [...bound, idOf(ref)];
  const get = at(item, 'GET');
  if (get) out.get = (ref: Ref, query?: Record<string, unknown>) => dataOf(c.call(get, ids(ref), { query }));
  for (const [name, method] of [
    ['update', 'PATCH'],
    ['replace', 'PUT'],
  ] as const) {
    const op = at(item, method);
    if (op)
      out[name] = (ref: Ref, body: unknown, o?: CallOptions) => dataOf(c.call(op, ids(ref), { body, ref, options: o }));
  }
  const del = at(item, 'DELETE');
  if (del) out.delete = async (ref: Ref, o?: CallOptions) => void (await c.call(del, ids(ref), { ref, options: o }));
  for (const tail of literalTails(below, item)) {
    const path = `${item}/${tail}`;
    const isCollection = below.some((op) => op.path.startsWith(`${path}/`)) || (at(path, 'GET') && at(path, 'POST'));
    out[camel(tail)] = isCollection
      ? (ref: Ref) => buildResource(c, path, ids(ref))
      : action(c, path, below, (ref: Ref) => ids(ref));
  }
  return out;
}

/** `/invoices/{id}/mark-paid`: (record or id, body?, options?) → the answer's data; If-Match from the record. */
function action(c: Caller, path: string, below: readonly OperationInfo[], ids: (ref: Ref) => Array<number | string>) {
  const ops = below.filter((op) => op.path === path);
  const op = ops.find((o) => o.method === 'POST') ?? ops.find((o) => o.method === 'PUT') ?? ops[0]!;
  return (ref: Ref, body?: unknown, options?: CallOptions) =>
    op.method === 'GET'
      ? dataOf(c.call(op, ids(ref), { query: body as Record<string, unknown>, options }))
      : dataOf(c.call(op, ids(ref), { body, ref, options }));
}

/** A literal segment under a collection (`/tasks/bulk-action`, `/flextime/balance`): an action or a namespace. */
function nested(c: Caller, path: string, bound: Array<number | string>, below: readonly OperationInfo[]) {
  if (below.some((op) => op.path.startsWith(`${path}/`))) return buildResource(c, path, bound);
  const op = below.find((o) => o.path === path && o.method !== 'GET') ?? below.find((o) => o.path === path)!;
  return op.method === 'GET'
    ? (query?: Record<string, unknown>) => dataOf(c.call(op, bound, { query }))
    : (body?: unknown, options?: CallOptions) => dataOf(c.call(op, bound, { body, options }));
}

/** Every top-level resource of the document, keyed by its camelCased first path segment. */
export function buildResources(c: Caller): Record<string, Record<string, unknown>> {
  const roots = [...new Set(OPERATIONS.map((op) => op.path.split('/')[1]!))].filter((r) => r && !r.startsWith('{'));
  return Object.fromEntries(roots.map((root) => [camel(root), buildResource(c, `/${root}`)]));
}
