// `npm run worker`: a webhook delivery process of its own, on the configured database
// (DATABASE_URL, or the embedded server in SVC_DATA_DIR). Run any number next to the servers.
import { loadConfig } from './platform/config.ts';
import { connectDatabase } from './db/connect.ts';
import { jsonLog } from './webhooks/log.ts';
import { startDeliveryWorker, warnAboutWebhookConfig } from './webhooks/worker.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = jsonLog(config.logLevel);
  if (!config.webhooks.enabled) {
    log.info({}, 'webhooks are disabled (SVC_WEBHOOKS_ENABLED=false): nothing to deliver, exiting');
    return;
  }
  const connection = await connectDatabase(config, (msg, extra) => log.info(extra ?? {}, msg));
  warnAboutWebhookConfig(config, log);
  const worker = startDeliveryWorker({ databaseUrl: connection.url, config, log });

  let stopping = false;
  // SIGTERM/SIGINT: stop claiming, let in-flight attempts finish (or release them after the
  // answer time-out), then leave. A second signal does not cut this short.
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'webhook worker shutting down');
    await worker.stop();
    await connection.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  console.error('webhook worker failed to start:', error);
  process.exit(1);
});
