import path from 'node:path';
import type { Config } from '../platform/config.ts';
import { startEmbedded } from './embedded.ts';
import { migrate } from './migrate.ts';

export interface Connection {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/** DATABASE_URL when set; otherwise the embedded server in SVC_DATA_DIR. Migrations run either way. */
export async function connectDatabase(config: Config, log: (msg: string, extra?: object) => void): Promise<Connection> {
  if (config.databaseUrl) {
    await migrate(config.databaseUrl);
    return { url: config.databaseUrl, embedded: false, stop: async () => {} };
  }
  const server = await startEmbedded({ dataDir: config.dataDir, log });
  log(`embedded PostgreSQL data lives in ${path.join(config.dataDir, 'pg')}`);
  const applied = await migrate(server.url);
  if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
  return { url: server.url, embedded: true, stop: () => server.stop() };
}
