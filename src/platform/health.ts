import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Redis } from 'ioredis';
import type { Db } from '../db/database.ts';
import { ErrorBody } from './http.ts';
import { limitAddress } from './network.ts';
import type { RateLimits } from './ratelimit.ts';

const CHECK_TIMEOUT_MS = 2000;
/**
 * How long one probe answers for. Unauthenticated callers share it (and a probe still running), so a flood of
 * /health requests costs the components one round trip a second, not one per request.
 */
export const PROBE_REUSE_MS = 1000;
type Components = { database: 'up' | 'down'; cache: 'up' | 'down' };
// Inline rather than a reference: the probe is registered on apps without the shared Error schema too.
const { $id: _id, ...errorShape } = ErrorBody as typeof ErrorBody & { $id?: string };
const Component = Type.Union([Type.Literal('up'), Type.Literal('down')]);
const healthBody = (description: string) =>
  Type.Object(
    {
      status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
      components: Type.Object({ database: Component, cache: Component }),
    },
    { description },
  );

async function probe(check: () => Promise<unknown>): Promise<'up' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'up';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

/** Each component checked in parallel, so a hung component costs one timeout, not one per component. */
async function probeComponents(opts: { db: Db; redis?: Redis }): Promise<Components> {
  const [database, cache] = await Promise.all([
    probe(() => sql`select 1`.execute(opts.db)),
    // Without REDIS_URL the cache is in-process and up whenever this process answers.
    opts.redis ? probe(() => opts.redis!.ping()) : Promise.resolve('up' as const),
  ]);
  return { database, cache };
}

/** The last probe while it is fresh, else the one running, else a new one. */
function sharedProbe(opts: { db: Db; redis?: Redis }): () => Promise<Components> {
  let last: { at: number; components: Promise<Components> } | undefined;
  return () => {
    if (!last || Date.now() - last.at >= PROBE_REUSE_MS) {
      const components = probeComponents(opts);
      last = { at: Date.now(), components };
      // Fresh from when it finished: a slow probe is not followed at once by another.
      void components.then(() => {
        if (last?.components === components) last.at = Date.now();
      });
    }
    return last.components;
  };
}

/**
 * GET /health: real round trips to each component, at most one a second (PROBE_REUSE_MS); 503 "degraded" when
 * any is down. Needs no credentials, but counts against the per-address limit like every other v3 request.
 */
export async function healthRoutes(
  app: FastifyInstance,
  opts: { db: Db; redis?: Redis; limits?: RateLimits; trustProxy?: string },
) {
  const components = sharedProbe(opts);
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Availability probe',
        tags: ['Health'],
        'x-scope': 'none',
        'x-preview': false,
        description:
          'Checks each component with a real round trip (one probe answers every request for a second); needs no ' +
          'credentials; counts against the per-address limit (429 RATE_LIMIT_EXCEEDED).',
        response: {
          200: healthBody('Every component is up (status ok)'),
          429: { ...errorShape, description: 'RATE_LIMIT_EXCEEDED' },
          503: healthBody('A component is down (status degraded)'),
        },
      } as object,
      onRequest: async (request) => {
        await opts.limits?.consumeAddress(limitAddress(opts.trustProxy, request));
      },
    },
    async (_request, reply) => {
      const state = await components();
      const ok = Object.values(state).every((c) => c === 'up');
      // The answer is about this instant: never cached by a proxy.
      reply.header('Cache-Control', 'no-store');
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', components: state });
    },
  );
}
