// One HTTP call to API v3 with the service's rules: the tenant and key headers, an Idempotency-Key on every
// covered POST (reused on each retry so the server replays instead of running twice), and retries with backoff
// only where a repeat is safe. The typed client (client.ts) and the `svc` command line both go through here.
import { isIdempotent } from './operations.ts';

export const API_PREFIX = '/api/v3';
const DEFAULT_USER_AGENT = '@service-api/sdk/3.0.0';
const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;

export interface TransportOptions {
  /** The service's origin (`https://api.example.com`); a trailing `/api/v3` is accepted too. */
  baseUrl: string;
  /** The company (X-Service-Company); left out of the few requests that name none (signing in). */
  company?: string;
  /** The API key; without one, the browser's session cookie authenticates (the web application). */
  apiKey?: string;
  /** With a session: the CSRF token every write must carry (read at each request, so a new session's applies). */
  csrfToken?: () => string | undefined;
  fetch?: typeof fetch;
  /** Retries after the first attempt; default 3. */
  maxRetries?: number;
  /**
   * The longest wait a Retry-After may ask for and still be waited out; past it the answer (a 429, say) is returned
   * at once, so that a person can be told when to try again instead of watching a request hang. Default: no limit.
   */
  maxRetryWaitMs?: number;
  /** null: send none (a browser sets its own). */
  userAgent?: string | null;
  sleep?: (ms: number) => Promise<void>;
  /** Called before each retry (logging, progress); `reason` is the status or the network error. */
  onRetry?: (info: { attempt: number; delayMs: number; reason: number | Error }) => void;
}

/** An answer other than 2xx, with the service's error body parsed. */
export class ApiError extends Error {
  status: number;
  code: string;
  requestId?: string;
  body: unknown;
  details?: Record<string, unknown>;

  constructor(status: number, body: unknown, requestId?: string) {
    const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
    const code = typeof error?.code === 'string' ? error.code : `HTTP_${status}`;
    const message = typeof error?.message === 'string' ? error.message : `HTTP ${status}`;
    super(`${code}: ${message}${requestId ? ` (request ${requestId})` : ''}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.requestId = requestId;
    this.body = body;
    if (error?.details && typeof error.details === 'object') this.details = error.details as Record<string, unknown>;
  }
}

/** The service could not be reached, or the connection broke before an answer arrived. */
export class NetworkError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

export interface SendInit {
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
  idempotencyKey?: string;
  ifMatch?: string;
}

/** `https://host` or `https://host/api/v3` → `https://host/api/v3`. */
export function apiRoot(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith(API_PREFIX) ? trimmed : `${trimmed}${API_PREFIX}`;
}

/** Arrays repeat the parameter; null and undefined are left out; objects are sent as JSON text. */
export function queryString(query: Record<string, unknown> | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      params.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

type RawBody = NonNullable<RequestInit['body']>;

function isRawBody(body: unknown): body is RawBody {
  return (
    typeof body === 'string' ||
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

const randomUUID = () => globalThis.crypto.randomUUID();

/** The tenant and the credential: an API key, or a session's CSRF token on writes (the cookie goes by itself). */
function setCredentials(headers: Headers, opts: TransportOptions, method: string): void {
  if (opts.company) headers.set('X-Service-Company', opts.company);
  if (opts.apiKey !== undefined) headers.set('X-API-Key', opts.apiKey);
  const csrf = opts.csrfToken?.();
  if (csrf && method !== 'GET' && method !== 'HEAD') headers.set('X-CSRF-Token', csrf);
  if (opts.userAgent !== null) headers.set('User-Agent', opts.userAgent ?? DEFAULT_USER_AGENT);
}

/** The request's headers: authentication, user agent, and the idempotency and precondition headers. */
function headersFor(opts: TransportOptions, method: string, path: string, init: SendInit): Headers {
  const headers = new Headers(init.headers);
  setCredentials(headers, opts, method);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');
  if (init.ifMatch !== undefined) headers.set('If-Match', init.ifMatch);
  const key = init.idempotencyKey ?? (method === 'POST' && isIdempotent(method, path) ? randomUUID() : undefined);
  if (key !== undefined && !headers.has('Idempotency-Key')) headers.set('Idempotency-Key', key);
  if (init.body !== undefined && !isRawBody(init.body) && !headers.has('Content-Type'))
    headers.set('Content-Type', 'application/json');
  return headers;
}

/** Builds the Request once; each attempt sends a clone, so the body and the Idempotency-Key are the same. */
export function buildRequest(opts: TransportOptions, method: string, path: string, init: SendInit = {}): Request {
  const upper = method.toUpperCase();
  const body: RawBody | undefined =
    init.body === undefined ? undefined : isRawBody(init.body) ? init.body : JSON.stringify(init.body);
  // A path may carry its own query (`svc api GET '/clients?status=active'`); init.query is added to it.
  const query = queryString(init.query);
  const url = `${apiRoot(opts.baseUrl)}${path}${path.includes('?') && query ? `&${query.slice(1)}` : query}`;
  return new Request(url, {
    method: upper,
    headers: headersFor(opts, upper, path.split('?')[0]!, init),
    body,
  });
}

/**
 * A repeat is safe when the server cannot have applied the first attempt twice: every method but POST is
 * idempotent by its nature here (PATCH sends the fields' new values), and a POST is when it carries an
 * Idempotency-Key the server honours. 429 is always safe: the request was refused before it ran.
 */
function safeToRepeat(request: Request): boolean {
  if (request.method !== 'POST') return true;
  return request.headers.has('Idempotency-Key') && isIdempotent('POST', pathOf(request.url));
}

function pathOf(url: string): string {
  const pathname = new URL(url).pathname;
  const at = pathname.indexOf(API_PREFIX);
  return at === -1 ? pathname : pathname.slice(at + API_PREFIX.length);
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Exponential backoff with jitter (half fixed, half random) so many clients do not retry in step. */
function backoffMs(attempt: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** The request a same-origin redirect leads to: 303 (and 301/302 after a POST) become a GET without a body. */
async function redirected(request: Request, target: URL, status: number): Promise<Request> {
  const toGet = status === 303 ? request.method !== 'HEAD' : status <= 302 && request.method === 'POST';
  const headers = new Headers(request.headers);
  if (toGet) headers.delete('Content-Type');
  const method = toGet ? 'GET' : request.method;
  const body = method === 'GET' || method === 'HEAD' ? undefined : await request.clone().arrayBuffer();
  return new Request(target, { method, headers, body, redirect: 'manual' });
}

/**
 * Redirects are followed here, not by fetch: fetch would carry X-API-Key to any origin a Location names (it drops
 * only Authorization and cookies). A redirect within the service's origin is followed with the headers; one to
 * another origin is answered as it came, unfollowed, so the key never leaves the origin it was given for.
 */
async function sendFollowingSameOrigin(fetcher: typeof fetch, request: Request): Promise<Response> {
  let current = request;
  for (let hops = 0; ; hops++) {
    const response = await fetcher(new Request(current.clone(), { redirect: 'manual' }));
    const location = response.headers.get('Location');
    if (!REDIRECTS.has(response.status) || location === null || hops === MAX_REDIRECTS) return response;
    const target = new URL(location, current.url);
    if (target.origin !== new URL(current.url).origin) return response;
    await response.body?.cancel();
    current = await redirected(current, target, response.status);
  }
}

type Outcome = { response: Response } | { error: NetworkError };

async function attempt(fetcher: typeof fetch, request: Request): Promise<Outcome> {
  try {
    return { response: await sendFollowingSameOrigin(fetcher, request) };
  } catch (cause) {
    const text = cause instanceof Error ? cause.message : String(cause);
    return { error: new NetworkError(`${request.method} ${request.url} failed: ${text}`, { cause }) };
  }
}

/** The delay before the next try, or undefined when this outcome is final. */
function retryDelay(outcome: Outcome, request: Request): number | undefined {
  if ('error' in outcome) return safeToRepeat(request) ? -1 : undefined;
  const { status, headers } = outcome.response;
  if (status === 429) return retryAfterMs(headers.get('Retry-After')) ?? -1;
  if (status >= 500 && safeToRepeat(request)) return retryAfterMs(headers.get('Retry-After')) ?? -1;
  return undefined;
}

/**
 * Sends the request, retrying network errors, 429 and 5xx (where safe) up to maxRetries times; resolves the
 * last Response whatever its status, or throws NetworkError when the last attempt got no answer.
 */
export async function fetchWithRetry(opts: TransportOptions, request: Request): Promise<Response> {
  const fetcher = opts.fetch ?? fetch;
  const sleep = opts.sleep ?? defaultSleep;
  const maxRetries = opts.maxRetries ?? 3;
  for (let tries = 0; ; tries++) {
    const outcome = await attempt(fetcher, request);
    let wait = tries < maxRetries ? retryDelay(outcome, request) : undefined;
    if (wait !== undefined && opts.maxRetryWaitMs !== undefined && wait > opts.maxRetryWaitMs) wait = undefined;
    if (wait === undefined) {
      if ('error' in outcome) throw outcome.error;
      return outcome.response;
    }
    if ('response' in outcome) await outcome.response.body?.cancel();
    const delayMs = wait === -1 ? backoffMs(tries) : wait;
    opts.onRetry?.({
      attempt: tries + 1,
      delayMs,
      reason: 'error' in outcome ? outcome.error : outcome.response.status,
    });
    await sleep(delayMs);
  }
}

/** Reads a non-2xx answer into an ApiError (the body may be JSON or not). */
export async function toApiError(response: Response): Promise<ApiError> {
  const location = response.headers.get('Location');
  if (REDIRECTS.has(response.status) && location !== null) {
    await response.body?.cancel();
    const message = `the service redirected to ${location}, which is not followed: the API key goes to no other origin (nor past ${MAX_REDIRECTS} redirects)`;
    return new ApiError(response.status, { error: { code: 'REDIRECT_NOT_FOLLOWED', message, details: { location } } });
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  return new ApiError(response.status, body, response.headers.get('X-Request-Id') ?? undefined);
}

/**
 * One call: sends X-Service-Company and X-API-Key, adds an Idempotency-Key to every POST the spec covers and
 * reuses it on each retry, retries network errors, 429 (Retry-After) and 5xx with backoff, never other 4xx.
 * Resolves the final Response when ok; throws ApiError (parsed error body) or NetworkError.
 */
export async function send(opts: TransportOptions, method: string, path: string, init?: SendInit): Promise<Response> {
  const response = await fetchWithRetry(opts, buildRequest(opts, method, path, init));
  if (!response.ok) throw await toApiError(response);
  return response;
}

/**
 * A fetch for clients that build their own Request (openapi-fetch): adds the authentication headers and, on a
 * covered POST without one, an Idempotency-Key; then sends with the same retries as send(). Errors are answers.
 */
export function transportFetch(opts: TransportOptions): (request: Request) => Promise<Response> {
  return (request) => {
    const headers = new Headers(request.headers);
    setCredentials(headers, opts, request.method);
    if (request.method === 'POST' && !headers.has('Idempotency-Key') && isIdempotent('POST', pathOf(request.url)))
      headers.set('Idempotency-Key', randomUUID());
    return fetchWithRetry(opts, new Request(request, { headers }));
  };
}
