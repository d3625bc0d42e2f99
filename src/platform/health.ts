import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Redis } from 'ioredis';
import type { Db } from '../db/database.ts';

const CHECK_TIMEOUT_MS = 2000;
const Component = Type.Union([Type.Literal('up'), Type.Literal('down')]);
const HealthBody = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  components: Type.Object({ database: Component, cache: Component }),
});

async function probe(check: () => Promise<unknown>): Promise<'up' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS); });
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
  app.get('/health', {
    schema: {
      operationId: 'getHealth', summary: 'Availability probe', tags: ['Health'], 'x-scope': 'none',
      response: { 200: HealthBody, 503: HealthBody },
    } as object,
  }, async (_request, reply) => {
    const database = await probe(() => sql`select 1`.execute(opts.db));
    // Without REDIS_URL the cache is in-process and up whenever this process answers.
    const cache = opts.redis ? await probe(() => opts.redis!.ping()) : 'up';
    const components = { database, cache };
    const ok = Object.values(components).every((c) => c === 'up');
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', components });
  });
}
