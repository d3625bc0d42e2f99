/**
 * The response headers of the OpenAPI document, derived from what each route declares (tier, preview flag,
 * idempotency coverage, error codes, response schemas), never listed per route by hand (decision 0057).
 */

type Schema = Record<string, unknown>;
type Response = { content?: Record<string, { schema?: Schema }>; headers?: Record<string, unknown> };
export interface HeaderMeta {
  tier?: string;
  preview?: boolean;
  idempotent?: boolean;
  errorCodes?: readonly string[];
}

const text = (description: string, schema: Schema = { type: 'string' }, required = false) => ({
  description,
  schema,
  ...(required ? { required } : {}),
});

/** components.headers: each header described once. */
export const HEADER_COMPONENTS = {
  'X-Request-Id': text('Identifier of this request, also in the service log', { type: 'string' }, true),
  'X-RateLimit-Limit': text('Requests allowed per one-minute window for this tier', {
    type: 'string',
    pattern: '^\\d+$',
  }),
  'X-RateLimit-Remaining': text('Requests left in the current window', { type: 'string', pattern: '^\\d+$' }),
  'X-RateLimit-Reset': text('When the window ends (Unix epoch seconds)', { type: 'string', pattern: '^\\d+$' }),
  'X-RateLimit-Tier': text('The counted tier', { type: 'string', enum: ['read', 'write'] }),
  'Retry-After': text('Seconds to wait before trying again', { type: 'string', pattern: '^\\d+$' }, true),
  'X-Api-Preview': text(
    'A preview resource: its shape may change between releases',
    { type: 'string', enum: ['true'] },
    true,
  ),
  'Idempotency-Replayed': text('This answer is the stored answer of an earlier request with the same Idempotency-Key', {
    type: 'string',
    enum: ['true'],
  }),
  ETag: text("The record's version (from updated_at); send it back in If-Match"),
  'X-Service-Warning': text("Legacy copy of the body's warnings[] (a JSON array, bounded; one deprecation cycle)"),
  'Content-Disposition': text('attachment, with the file name'),
  'Content-Range': text('The bytes of this part: bytes start-end/size', { type: 'string' }, true),
} as const;

type HeaderName = keyof typeof HEADER_COMPONENTS;
/** A reference (OpenAPI 3.1 allows no `required` beside `$ref`, so a header required only sometimes is inlined). */
const ref = (name: HeaderName, optional = false) =>
  optional ? { ...HEADER_COMPONENTS[name], required: false } : { $ref: `#/components/headers/${name}` };

/** Error codes whose answer carries Retry-After besides 429 (the catalogue's status gives the response). */
const RETRY_AFTER_CODES = new Set(['RATE_LIMIT_EXCEEDED', 'ATTACHMENT_PROCESSING', 'DATABASE_UNAVAILABLE']);
const RATE_LIMIT_HEADERS: HeaderName[] = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Tier',
];

/** Follows a local $ref (#/components/schemas/...) once the document is complete. */
export type Resolve = (schema: Schema | undefined) => Schema | undefined;
let resolve: Resolve = (schema) => schema;

const json = (response: Response) => resolve(response.content?.['application/json']?.schema);
const properties = (schema: Schema | undefined) => (resolve(schema)?.properties ?? {}) as Record<string, Schema>;

/** A single-record answer: single() sets ETag when the record has updated_at. */
const isSingleWithVersion = (response: Response) => 'updated_at' in properties(properties(json(response)).data);
/** A download (non-JSON content): sent with ETag and Content-Disposition. */
const isDownload = (response: Response) =>
  response.content !== undefined && Object.keys(response.content).some((type) => !type.includes('json'));

function successHeaders(status: number, response: Response, meta: HeaderMeta): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (isSingleWithVersion(response) || isDownload(response)) out.ETag = ref('ETag');
  if (isDownload(response)) out['Content-Disposition'] = ref('Content-Disposition');
  if (status === 206) out['Content-Range'] = ref('Content-Range');
  if ('warnings' in properties(json(response))) out['X-Service-Warning'] = ref('X-Service-Warning');
  if (meta.idempotent) out['Idempotency-Replayed'] = ref('Idempotency-Replayed');
  return out;
}

/** Whether this error status answers one of the route's codes that carry Retry-After. */
function carriesRetryAfter(status: number, response: Response): boolean {
  if (status === 429) return true;
  const codes = String((response as { description?: string }).description ?? '').split(', ');
  return codes.some((code) => RETRY_AFTER_CODES.has(code));
}

/** Declares on each response of one operation the headers the service sends with it. */
export function declareHeaders(responses: Record<string, Response>, meta: HeaderMeta, resolver: Resolve): void {
  resolve = resolver;
  const authenticated = meta.tier !== undefined && meta.tier !== 'none' && meta.tier !== 'operator';
  for (const [code, response] of Object.entries(responses)) {
    const status = Number(code);
    const headers: Record<string, unknown> = { 'X-Request-Id': ref('X-Request-Id') };
    // Counted before the scope and validation steps, so most answers (errors too) carry them; off when unlimited.
    if (authenticated) for (const name of RATE_LIMIT_HEADERS) headers[name] = ref(name);
    if (meta.preview) headers['X-Api-Preview'] = ref('X-Api-Preview');
    if (status >= 200 && status < 300) Object.assign(headers, successHeaders(status, response, meta));
    else if (carriesRetryAfter(status, response)) headers['Retry-After'] = ref('Retry-After', status !== 429);
    response.headers = { ...response.headers, ...headers };
  }
}
