export { createClient, type ClientOptions, type ServiceClient } from './client.ts';
export {
  ApiError,
  NetworkError,
  send,
  fetchWithRetry,
  transportFetch,
  type SendInit,
  type TransportOptions,
} from './transport.ts';
export { OPERATIONS, findOperation, isIdempotent, operationById, type OperationInfo } from './operations.ts';
export type { CallOptions, Ref } from './resources.ts';
export type { Resource, Resources, DataOf, BodyOf, QueryOf, OkBody } from './types.ts';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent, type WebhookHeaders } from './webhooks.ts';
export type { paths, components, operations } from './schema.d.ts';
