// Migrations only go forward: a database from a newer release is refused at start, with what to do.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { cloneDatabase } from '../clone.ts';
import { listMigrations, migrate } from '../../src/db/migrate.ts';
import { makeDataDir, startService } from '../main/support.ts';

const url = await cloneDatabase();
const FUTURE = '9990_from_a_newer_release.sql';

async function query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

test('a database of this release migrates to nothing; one of a newer release is refused and left as it was', async () => {
  assert.deepEqual(await migrate(url), []);
  const known = await listMigrations();
  await query('insert into schema_migrations (name) values ($1)', [FUTURE]);
  await assert.rejects(
    migrate(url),
    new RegExp(
      `migrated by a newer release of the service \\(it has 1 migration\\(s\\) this release does not know, the last ${FUTURE}; this release's last is ${known.at(-1)}\\)`,
    ),
  );
  const rows = await query<{ name: string }>('select name from schema_migrations order by name');
  assert.deepEqual(
    rows.map((r) => r.name),
    [...known, FUTURE].sort(),
  );
});

test('`npm start` on that database stops with the message and a failing exit code', { timeout: 120_000 }, async () => {
  const service = startService(await makeDataDir(), { DATABASE_URL: url });
  await service.waitFor(/migrated by a newer release of the service/);
  const { code } = await service.exited;
  assert.notEqual(code, 0);
  assert.ok(!service.output.some((line) => /^listening on /.test(line)), service.output.join('\n'));
});
