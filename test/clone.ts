// A test file's own database, cloned from the template scripts/test.ts migrated. Kept apart from
// helpers.ts so tests that need only a database do not load the whole app.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const ADMIN_URL = process.env.TEST_PG_ADMIN_URL as string;
const TEMPLATE = process.env.TEST_PG_TEMPLATE as string;
const RUN_ID = process.env.TEST_RUN_ID ?? 'adhoc';

if (!ADMIN_URL || !TEMPLATE)
  throw new Error('Run the tests with `npm test` (it prepares the database server and template)');

/** A database of this test file's own, cloned from the migrated template. */
export async function cloneDatabase(): Promise<string> {
  const name = `svc_t_${RUN_ID}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database "${name}" template "${TEMPLATE}"`);
        break;
      } catch (error) {
        // Two clones of one template at the same instant can collide; the next try succeeds.
        if (attempt >= 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await client.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
