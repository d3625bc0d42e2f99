import path from 'node:path';
import type { Config } from '../config.ts';
import { startEmbedded } from './embedded.ts';
import { migrate } from './migrate.ts';

export interface Connection {
  /** Where queries go: the server, or a transaction pooler in front of it. */
  url: string;
  /** The server itself: migrations and LISTEN need a session of their own, which a transaction pooler cannot give. */
  directUrl: string;
  /** url goes through a transaction pooler: no session state on its connections (decision 0060). */
  pooled: boolean;
  embedded: boolean;
  /** Whether this process started (or adopted) the embedded server and so stops it; false when attached to a running one. */
  owned: boolean;
  /** Migrations applied by this connect, in order (empty when the schema was current). */
  applied: string[];
  /** Where the data lives, for logs: the cluster directory or the redacted DATABASE_URL. */
  location: string;
  stop(): Promise<void>;
}

export type ConnectLog = (msg: string, extra?: object) => void;

/** The URL without its password, safe to print. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}

/**
 * DATABASE_URL when set; otherwise the embedded server in SVC_DATA_DIR (started, or attached
 * to when another process already runs it: never a second server on one directory).
 * Migrations run either way.
 */
export async function connectDatabase(
  config: Config,
  log: ConnectLog,
  options: { migrate?: boolean } = {},
): Promise<Connection> {
  // Backup and restore take the schema as it is: a backup must not upgrade what it copies, a restore migrates itself.
  const migrateAt = async (url: string) => (options.migrate === false ? [] : migrate(url));
  if (config.databaseUrl) {
    const location = redactUrl(config.databaseUrl);
    log(`using the database at DATABASE_URL ${location}`);
    const directUrl = config.databaseDirectUrl ?? config.databaseUrl;
    const pooled = directUrl !== config.databaseUrl;
    if (pooled) log(`migrations and change listeners use DATABASE_DIRECT_URL ${redactUrl(directUrl)}`);
    const applied = await migrateAt(directUrl);
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
    const base = { url: config.databaseUrl, directUrl, pooled, embedded: false, owned: false, applied, location };
    return { ...base, stop: async () => {} };
  }
  const server = await startEmbedded({ dataDir: config.dataDir, log });
  const location = server.pgDir;
  const link = path.join(config.dataDir, 'pg');
  const notes = [
    ...(location === link ? [] : [`linked from ${link}`]),
    ...(server.owned ? [] : ['server run by another process']),
  ];
  log(`embedded PostgreSQL data lives in ${location}${notes.length ? ` (${notes.join('; ')})` : ''}`);
  try {
    const applied = await migrateAt(server.url);
    if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
    const base = { url: server.url, directUrl: server.url, pooled: false, embedded: true, owned: server.owned };
    return { ...base, applied, location, stop: () => server.stop() };
  } catch (error) {
    // A failed migration must not leave a server behind that nobody will stop.
    await server.stop().catch(() => {});
    throw error;
  }
}
