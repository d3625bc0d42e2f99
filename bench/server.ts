// The service under test, in a process of its own (forked by bench/run.ts with an IPC channel):
// buildApp (with the web application) + listen exactly as src/main.ts does, configured from the environment the harness sets
// (DATABASE_URL of the seeded database, SVC_RATE_LIMIT_*=0). It answers memory samples over IPC.
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/database.ts';
import { loadConfig } from '../src/config.ts';
import { defaultWebDir } from '../src/platform/web-host.ts';
import { answerControl } from './child.ts';

const config = loadConfig();
if (!config.databaseUrl) throw new Error('bench/server.ts needs DATABASE_URL');
const database = openDatabase(config.databaseUrl, {
  statementTimeoutMs: config.statementTimeoutMs,
  reportStatementTimeoutMs: config.reportStatementTimeoutMs,
});
// The web application too, as src/main.ts serves it: the clients screen's scenario drives it in a browser.
const app = await buildApp({ config, db: database, webDir: defaultWebDir() });
await app.listen({ port: 0, host: '127.0.0.1' });
answerControl(app.server, async () => {
  await app.close();
  await database.close();
});
