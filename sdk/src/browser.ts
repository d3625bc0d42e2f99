// The SDK for a browser (the web application): the client and its errors, without the webhook verifier, which
// needs node:crypto's HMAC and belongs on a receiving server.
export { createClient, type ClientOptions, type ServiceClient } from './client.ts';
export { ApiError, NetworkError, type SendInit, type TransportOptions } from './transport.ts';
export type { CallOptions, Ref } from './resources.ts';
export type { Resource, Resources, DataOf, BodyOf, QueryOf, OkBody } from './types.ts';
export type { paths, components, operations } from './schema.d.ts';
