import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { Db } from '../../db/database.ts';
import { latestMigration } from '../../db/migrate.ts';
import { deliveryBacklog } from '../webhooks/index.ts';
import { jobBacklog } from '../jobs/index.ts';

const Count = Type.Integer({ minimum: 0 });
const Seconds = Type.Number({ minimum: 0 });

export const OperatorHealth = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Type.Union([Type.Literal('up'), Type.Literal('down')]),
  migration: Type.Union([
    Type.Object({ name: Type.String(), number: Count, applied_at: Type.String({ format: 'date-time' }) }),
    Type.Null(),
  ]),
  webhooks: Type.Union([
    Type.Object({ due: Count, in_flight: Count, scheduled: Count, lag_seconds: Seconds }),
    Type.Null(),
  ]),
  jobs: Type.Union([Type.Object({ queued: Count, running: Count, oldest_queued_seconds: Seconds }), Type.Null()]),
});
type OperatorHealth = Static<typeof OperatorHealth>;

/** The three reads together; the database down (or a read refused) is the answer's reason, not a 500. */
async function readHealth(db: Db): Promise<OperatorHealth> {
  try {
    const [migration, webhooks, jobs] = await Promise.all([latestMigration(db), deliveryBacklog(db), jobBacklog(db)]);
    return { status: 'ok', database: 'up', migration: migration ?? null, webhooks, jobs };
  } catch {
    return { status: 'degraded', database: 'down', migration: null, webhooks: null, jobs: null };
  }
}

/**
 * GET /operator/health: why the service is or is not keeping up (decision 0059), where GET /api/v3/health only says
 * up or down: the schema version applied, the webhook delivery backlog and lag, the job backlog and its age. The
 * figures are the whole database's (every instance answers the same); counts stop at their cap (10,000).
 */
export async function operatorHealthRoutes(fastify: FastifyInstance, opts: { db: Db }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/health',
    {
      config: { tier: 'operator' },
      schema: { hide: true, response: { 200: OperatorHealth, 503: OperatorHealth } },
    },
    async (_request, reply) => {
      const health = await readHealth(opts.db);
      reply.header('Cache-Control', 'no-store');
      return reply.code(health.status === 'ok' ? 200 : 503).send(health);
    },
  );
}
