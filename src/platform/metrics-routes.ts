import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';
import { registerErrorHandling } from './error-handler.ts';
import { createMetrics, type Metrics, type MetricSources } from './metrics.ts';
import { limitAddress } from './network.ts';
import { checkHttps } from './pipeline.ts';
import type { RateLimits } from './ratelimit.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();
// The auth scheme name is case-insensitive (RFC 9110 section 11.1).
const BEARER = /^Bearer +(\S+)$/i;

export interface MetricsRouteOptions {
  config: Config;
  metrics: Metrics;
  /** The server's per-address limit; the worker's listener has none (its reads are shared, READINGS_REUSE_MS). */
  limits?: RateLimits;
}

/** The token as the operator API checks its own: the HTTPS rule, the per-address limit, a constant-time compare. */
async function authorize(opts: MetricsRouteOptions, token: string, request: FastifyRequest): Promise<void> {
  checkHttps(opts.config, request);
  await opts.limits?.consumeAddress(limitAddress(opts.config.trustProxy, request));
  const sent = BEARER.exec(request.headers.authorization ?? '')?.[1] ?? '';
  if (sent && timingSafeEqual(digest(sent), digest(token))) return;
  throw new AppError('UNAUTHORIZED', 'A valid metrics token is required (Authorization: Bearer <SVC_METRICS_TOKEN>)');
}

/**
 * GET /metrics in the Prometheus text format, outside /api/v3 and its OpenAPI document. Registered only with
 * SVC_METRICS_TOKEN set: without it the path is as unknown as any other (404).
 */
export async function metricsRoutes(app: FastifyInstance, opts: MetricsRouteOptions): Promise<void> {
  const token = opts.config.metricsToken;
  if (!token) return;
  app.get(
    '/metrics',
    { schema: { hide: true }, onRequest: async (request) => authorize(opts, token, request) },
    async (_request, reply) => {
      const body = await opts.metrics.registry.metrics();
      return reply.header('Cache-Control', 'no-store').type(opts.metrics.registry.contentType).send(body);
    },
  );
}

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/**
 * `npm run worker` has no HTTP server: with SVC_METRICS_PORT (and the token) it listens on HOST:SVC_METRICS_PORT for
 * /metrics alone, with the same token rule and error body as the server's; any other path is 404.
 */
export async function listenForMetrics(config: Config, sources: MetricSources): Promise<MetricsListener | undefined> {
  if (config.metricsPort === undefined || !config.metricsToken) return undefined;
  const metrics = createMetrics(sources);
  // Scraped directly (no proxy's forwarding headers are believed); the worker's log says where it listens.
  const app = Fastify({ logger: false, trustProxy: false });
  registerErrorHandling(app);
  await app.register(metricsRoutes, { config, metrics });
  await app.listen({ port: config.metricsPort, host: config.host });
  const { port } = app.server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return { url: `http://${host}:${port}/metrics`, close: () => app.close() };
}
