// `npm run worker`: a background process of its own on the configured database (DATABASE_URL, or the
// embedded server in SVC_DATA_DIR): webhook deliveries, background jobs and periodic work (e.g. the
// recurring-task horizon). Run any number next to the servers.
import { loadConfig } from './config.ts';
import { connectDatabase } from './db/connect.ts';
import { openDatabase } from './db/database.ts';
import { connectionBudget, describeBudget, poolSizeOf } from './db/pool-budget.ts';
import { checkPooledSettings } from './db/pooler.ts';
import { loadModules } from './modules/index.ts';
import { jsonLog, startBackground, warnAboutWebhookConfig } from './background/index.ts';
import { listenForMetrics } from './platform/metrics-routes.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = jsonLog(config.logLevel);
  const connection = await connectDatabase(config, (msg, extra) => log.info(extra ?? {}, msg));
  if (config.webhooks.enabled) warnAboutWebhookConfig(config, log);
  else log.info({}, 'webhooks are disabled (SVC_WEBHOOKS_ENABLED=false): running background jobs only');
  const database = openDatabase(connection.url, {
    max: poolSizeOf(config, 'worker'),
    pooled: connection.pooled,
    waitMs: config.pool.waitMs,
    applicationName: 'service-api-jobs',
    statementTimeoutMs: config.statementTimeoutMs,
    reportStatementTimeoutMs: config.reportStatementTimeoutMs,
  });
  log.info({}, describeBudget(connectionBudget(config, 'worker', config.webhooks.enabled, connection.pooled)));
  if (connection.pooled) await checkPooledSettings(database.db, config, (message) => log.warn({}, message));
  const registry = loadModules();
  const background = startBackground({
    db: database.db,
    connection,
    config,
    log,
    registry,
    webhooks: config.webhooks.enabled,
  });
  // Its own /metrics (decision 0059): this process's pool and memory, and the backlog it works on.
  const metrics = await listenForMetrics(config, { pool: database.pool, db: database.db, modules: registry.modules });
  if (metrics) log.info({ url: metrics.url }, 'serving metrics');
  else if (config.metricsPort !== undefined)
    log.warn({}, 'SVC_METRICS_PORT is set without SVC_METRICS_TOKEN: no metrics');

  let stopping = false;
  // SIGTERM/SIGINT: stop claiming, let in-flight attempts finish (or release them after the
  // answer time-out); a job in progress goes back to the queue after its current chunk. Then leave.
  // A second signal does not cut this short.
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker shutting down');
    await metrics?.close();
    await background.stop();
    await database.close();
    await connection.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  console.error('worker failed to start:', error);
  process.exit(1);
});
