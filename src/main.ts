import { access, mkdir, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildApp, type App } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase, type Db } from './db/database.ts';
import { connectionBudget, describeBudget, poolSizeOf } from './db/pool-budget.ts';
import { checkPooledSettings } from './db/pooler.ts';
import { connectDatabase, type Connection } from './db/connect.ts';
import type { CompanySeeder } from './platform/modules.ts';
import { createCompany } from './modules/companies/index.ts';
import { linkAccount } from './modules/members/index.ts';
import { generatePassword, setAccountPassword } from './modules/sessions/index.ts';
import { loadModules } from './modules/index.ts';
import { startBackground, warnAboutWebhookConfig } from './background/index.ts';
import { defaultWebDir } from './platform/web-host.ts';

/** In-flight requests get this long to finish on SIGTERM/SIGINT before their connections are cut. */
const DRAIN_TIMEOUT_MS = 20_000;
const DEMO_MARKER = 'demo_company_id';
const DEMO_EMAIL = 'owner@demo.example';

const log = (msg: string, extra?: object) => console.log(extra ? `${msg} ${JSON.stringify(extra)}` : msg);

/** The address a local client can use: wildcard binds are reached via loopback; the port is the real one (PORT=0 too). */
function reachableUrl(app: App): string {
  const { address, family, port } = app.server.address() as AddressInfo;
  const wildcard = address === '0.0.0.0' || address === '::';
  const host = wildcard ? '127.0.0.1' : family === 'IPv6' ? `[${address}]` : address;
  return `http://${host}:${port}`;
}

/**
 * First start of an empty embedded database: a demo tenant to try the API with. The marker row,
 * claimed in the same transaction, makes this happen once even when two instances start together.
 */
async function provisionDemo(
  db: Db,
  dataDir: string,
  urls: { api: string; web: string },
  seeders: readonly CompanySeeder[],
): Promise<void> {
  const file = path.join(dataDir, 'demo-credentials.json');
  const password = generatePassword(20);
  const demo = await db.transaction().execute(async (tx) => {
    const claimed = await tx
      .insertInto('platform_settings')
      .values({ name: DEMO_MARKER, value: '' })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('name')
      .executeTakeFirst();
    if (!claimed) return undefined;
    // Data created before the first start (e.g. with the CLI) means the database is not empty: no demo.
    if (await tx.selectFrom('companies').select('id').limit(1).executeTakeFirst()) return undefined;
    const created = await createCompany(
      tx,
      { name: 'Demo Company', timezone: 'UTC', owner: { name: 'Demo', surname: 'Owner', email: DEMO_EMAIL } },
      seeders,
    );
    // The owner signs in to the web application with this address and the generated password.
    const account = await linkAccount(tx, {
      email: DEMO_EMAIL,
      companyId: created.company_id,
      personId: created.owner.person_id,
    });
    await setAccountPassword(tx, account, password);
    await tx
      .updateTable('platform_settings')
      .set({ value: created.company_id })
      .where('name', '=', DEMO_MARKER)
      .execute();
    return created;
  });
  if (!demo) {
    if (
      await access(file).then(
        () => true,
        () => false,
      )
    )
      log(`demo credentials from the first start: ${file}`);
    return;
  }
  await saveDemoCredentials(file, { ...demo, password }, urls);
}

/** The demo's credentials, in a file only this user may read and on the terminal. */
async function saveDemoCredentials(
  file: string,
  demo: Awaited<ReturnType<typeof createCompany>> & { password: string },
  urls: { api: string; web: string },
): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const saved = {
    company_id: demo.company_id,
    api_key: demo.api_key.full_key,
    base_url: urls.api,
    web_url: urls.web,
    email: DEMO_EMAIL,
    password: demo.password,
  };
  await writeFile(file, JSON.stringify(saved, null, 2) + '\n', { mode: 0o600 });
  log(`\nDemo company provisioned (credentials saved to ${file}):`);
  log(`  company id: ${demo.company_id}`);
  log(`  admin key:  ${demo.api_key.full_key}`);
  log(`\nSign in to the web application at ${urls.web}/`);
  log(`  e-mail:     ${DEMO_EMAIL}`);
  log(`  password:   ${demo.password}`);
  log(
    `\nTry it:\n  curl -s -H 'X-Service-Company: ${demo.company_id}' -H 'X-API-Key: ${demo.api_key.full_key}' ${urls.api}/api/v3/clients\n`,
  );
}

interface Running {
  app: App;
  connection: Connection;
  close(): Promise<void>;
}

async function start(): Promise<Running> {
  const config = loadConfig();
  const connection = await connectDatabase(config, log);
  const database = openDatabase(connection.url, {
    max: poolSizeOf(config, 'server'),
    pooled: connection.pooled,
    waitMs: config.pool.waitMs,
    statementTimeoutMs: config.statementTimeoutMs,
    reportStatementTimeoutMs: config.reportStatementTimeoutMs,
  });
  // ioredis is loaded only when REDIS_URL asks for it.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : undefined;
  redis?.on('error', () => {});
  const cleanup = async () => {
    await database.close();
    redis?.disconnect();
    await connection.stop();
  };
  try {
    const app = await buildApp({
      config,
      db: database,
      redis,
      webDir: defaultWebDir(),
      listenUrl: connection.directUrl,
    });
    await app.listen({ port: config.port, host: config.host });
    const baseUrl = reachableUrl(app);
    log(`listening on ${baseUrl} (web application: ${baseUrl}/, API reference: ${baseUrl}/api/v3/docs)`);
    const registry = loadModules();
    // The web address: SVC_PUBLIC_URL when set, else where this process listens.
    const urls = { api: baseUrl, web: config.publicUrl ?? baseUrl };
    if (connection.embedded) await provisionDemo(database.db, config.dataDir, urls, registry.seeders);
    warnAboutWebhookConfig(config, app.log);
    log(describeBudget(connectionBudget(config, 'server', config.webhooks.inServer, connection.pooled)));
    if (connection.pooled) await checkPooledSettings(database.db, config, (message) => app.log.warn(message));
    // Jobs left behind by a stopped process and periodic work run in every server; webhook deliveries too by
    // default (own pool), and `npm run worker` runs more of them.
    const background = startBackground({
      db: database.db,
      connection,
      config,
      log: app.log,
      registry,
      webhooks: config.webhooks.inServer,
    });
    return {
      app,
      connection,
      close: async () => {
        await app.close();
        await background.stop();
        await cleanup();
      },
    };
  } catch (error) {
    // A failed start must not leave the embedded server running with nobody to stop it.
    await cleanup().catch(() => {});
    throw error;
  }
}

/**
 * Stop accepting, let in-flight requests finish (bounded), then release the database and the
 * embedded server. A signal during start-up waits for the start to finish, then stops.
 */
function handleSignals(starting: Promise<Running>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const running = await starting.catch(() => undefined);
    if (!running) return; // start-up failed and reports itself
    running.app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => running.app.server.closeAllConnections(), DRAIN_TIMEOUT_MS).unref();
    try {
      await running.close();
      clearTimeout(force);
      running.app.log.info('stopped');
      process.exit(0);
    } catch (error) {
      console.error('service-api failed to stop cleanly:', error);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

async function main() {
  log(`service-api starting on node ${process.versions.node}`);
  const starting = start();
  handleSignals(starting);
  await starting;
}

main().catch((error) => {
  console.error('service-api failed to start:', error);
  process.exit(1);
});
