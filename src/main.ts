import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { buildApp } from './app.ts';
import { loadConfig } from './platform/config.ts';
import { openDatabase } from './db/database.ts';
import { connectDatabase } from './db/connect.ts';
import { purgeExpiredIdempotency } from './platform/idempotency.ts';
import { createCompany } from './modules/companies/companies.service.ts';

const PURGE_INTERVAL_MS = 10 * 60 * 1000;

async function provisionDemo(database: ReturnType<typeof openDatabase>, dataDir: string, baseUrl: string) {
  const existing = await database.db.selectFrom('companies').select('id').limit(1).executeTakeFirst();
  if (existing) return;
  const demo = await createCompany(database.db, { name: 'Demo Company', timezone: 'UTC', owner: { name: 'Demo', surname: 'Owner', email: 'owner@demo.example' } });
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, 'demo-credentials.json');
  await writeFile(file, JSON.stringify({ company_id: demo.company_id, api_key: demo.api_key.full_key, base_url: baseUrl }, null, 2) + '\n', { mode: 0o600 });
  console.log(`\nDemo company provisioned (credentials saved to ${file}):`);
  console.log(`  company id: ${demo.company_id}`);
  console.log(`  admin key:  ${demo.api_key.full_key}`);
  console.log(`\nTry it:\n  curl -s -H 'X-Service-Company: ${demo.company_id}' -H 'X-API-Key: ${demo.api_key.full_key}' ${baseUrl}/api/v3/clients\n`);
}

async function main() {
  console.log(`service-api starting on node ${process.versions.node}`);
  const config = loadConfig();
  const connection = await connectDatabase(config, (msg, extra) => console.log(msg, extra ? JSON.stringify(extra) : ''));
  const database = openDatabase(connection.url);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false }) : undefined;
  redis?.on('error', () => {});
  const app = await buildApp({ config, db: database, redis });
  const address = await app.listen({ port: config.port, host: config.host });
  if (connection.embedded) await provisionDemo(database, config.dataDir, address.replace('0.0.0.0', '127.0.0.1'));
  const purge = setInterval(() => void purgeExpiredIdempotency(database.db).catch(() => {}), PURGE_INTERVAL_MS).unref();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    clearInterval(purge);
    await app.close();
    await database.close();
    redis?.disconnect();
    await connection.stop();
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  console.error('service-api failed to start:', error);
  process.exit(1);
});
