// createClient: the typed openapi-fetch client (`sdk.api`) and the resource helpers (`sdk.clients.list()`), both
// sending through the transport, so headers, idempotency keys and retries are the same whichever is used.
import createFetchClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.d.ts';
import { buildResources, caller } from './resources.ts';
import { apiRoot, send, transportFetch, type SendInit, type TransportOptions } from './transport.ts';
import type { Resources } from './types.ts';

export type ClientOptions = TransportOptions;

export type ServiceClient = Resources & {
  /** The typed openapi-fetch client: `await sdk.api.GET('/clients/{client_id}', { params: { path: { client_id } } })`. */
  api: Client<paths>;
  /** Any call by method and path (relative to /api/v3); throws ApiError on a non-2xx answer. */
  request(method: string, path: string, init?: SendInit): Promise<Response>;
};

export function createClient(options: ClientOptions): ServiceClient {
  const api = createFetchClient<paths>({ baseUrl: apiRoot(options.baseUrl), fetch: transportFetch(options) });
  const resources = buildResources(caller(options)) as unknown as Resources;
  return Object.assign(resources, {
    api,
    request: (method: string, path: string, init?: SendInit) => send(options, method, path, init),
  });
}
