import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { sessionSettings, type Db } from './database.ts';

/**
 * The session settings a transaction pooler's server connections must start with (PgBouncer's connect_query, or
 * ALTER ROLE ... SET): behind the pooler the service cannot set them itself (decision 0060).
 */
export const pooledConnectQuery = (config: Config): string =>
  sessionSettings({
    statementTimeoutMs: config.statementTimeoutMs,
    reportStatementTimeoutMs: config.reportStatementTimeoutMs,
  })!;

/**
 * Behind a pooler, a connection's time-outs are the pooler's business; say so at start when they are not the
 * service's settings, since a missing statement_timeout lets one request hold a server connection indefinitely.
 */
export async function checkPooledSettings(db: Db, config: Config, warn: (message: string) => void): Promise<void> {
  const { rows } = await sql<{ statement: string; report: string | null }>`select
    (select setting from pg_settings where name = 'statement_timeout') as statement,
    nullif(current_setting('svc.report_statement_timeout', true), '') as report`.execute(db);
  const found = rows[0]!;
  const expected = { statement: String(config.statementTimeoutMs), report: String(config.reportStatementTimeoutMs) };
  if (found.statement === expected.statement && (found.report ?? '') === expected.report) return;
  warn(
    `connections through the pooler run with statement_timeout ${found.statement} ms and svc.report_statement_timeout ` +
      `${found.report ?? 'unset'}, not the ${expected.statement} ms and ${expected.report} ms of SVC_STATEMENT_TIMEOUT ` +
      `and SVC_REPORT_STATEMENT_TIMEOUT: give the pooler the connect_query "${pooledConnectQuery(config)}" ` +
      '(or set them on the role)',
  );
}
