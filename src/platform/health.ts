import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Redis } from 'ioredis';
import type { Db } from '../db/database.ts';

const CHECK_TIMEOUT_MS = 2000;
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

/** GET /health: real round trips to each component; 503 "degraded" when any is down. Needs no credentials. */
export async function healthRoutes(app: FastifyInstance, opts: { db: Db; redis?: Redis }) {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        summary: 'Availability probe',
        tags: ['Health'],
        'x-scope': 'none',
        'x-preview': false,
        description: 'Checks each component with a real round trip; needs no credentials.',
        response: {
          200: healthBody('Every component is up (status ok)'),
          503: healthBody('A component is down (status degraded)'),
        },
      } as object,
    },
    async (_request, reply) => {
      // In parallel, so a hung component costs one timeout, not one per component.
      const [database, cache] = await Promise.all([
        probe(() => sql`select 1`.execute(opts.db)),
        // Without REDIS_URL the cache is in-process and up whenever this process answers.
        opts.redis ? probe(() => opts.redis!.ping()) : Promise.resolve('up' as const),
      ]);
      const components = { database, cache };
      const ok = Object.values(components).every((c) => c === 'up');
      // A probe answer is about this instant: never cached by a proxy.
      reply.header('Cache-Control', 'no-store');
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', components });
    },
  );
}
