// The benchmark data generator: `npm run bench:seed -- --scale=0.01 [--seed=1] [--template-rows=N] [--data-dir=data/bench]`
// seeds DATABASE_URL, or else the embedded server in --data-dir, and prints row counts and checksums.
// The harness (bench/run.ts) calls seedDatabase() on a fresh database of its own.
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../src/db/database.ts';
import { connectDatabase } from '../src/db/connect.ts';
import { loadConfig } from '../src/config.ts';
import { loadModules } from '../src/modules/index.ts';
import { assignRanges, planCompanies, TABLES, type SeededCompany, type Table } from './plan.ts';
import { companyStatements } from './seed-sql.ts';
import { templateStatements } from './seed-templates.ts';
import { rawFlags } from './args.ts';

export interface SeedOptions {
  scale: number;
  seed: number;
  /** Master (template) task rows per live task row of each company, in workflow templates of 30; 0: none. */
  templateRows?: number;
  log?: (line: string) => void;
}

export interface SeedResult {
  companies: SeededCompany[];
  seconds: number;
  rows: Record<string, number>;
}

async function maxIds(client: pg.PoolClient): Promise<Record<Table, number>> {
  const out = {} as Record<Table, number>;
  for (const table of TABLES)
    out[table] = Number((await client.query(`SELECT coalesce(max(id), 0) AS m FROM ${table}`)).rows[0].m);
  return out;
}

/** Companies first, through the same hooks createCompany runs, so seeded tenants have every default record. */
async function insertCompanies(url: string, companies: ReturnType<typeof planCompanies>): Promise<void> {
  const database = openDatabase(url, { max: 2, applicationName: 'bench-seed' });
  try {
    await database.db.transaction().execute(async (tx) => {
      const taken = await tx
        .selectFrom('companies')
        .select('id')
        .where(
          'id',
          'in',
          companies.map((c) => c.id),
        )
        .executeTakeFirst();
      if (taken)
        throw new Error(
          `company ${taken.id} already exists: this database was seeded with the same --seed; use a fresh database or another seed`,
        );
      await tx
        .insertInto('companies')
        .values(companies.map((c) => ({ id: c.id, name: c.name, timezone: c.timezone })))
        .execute();
      for (const company of companies) for (const seeder of loadModules().seeders) await seeder(tx, company.id);
    });
  } finally {
    await database.close();
  }
}

/** Skipping foreign-key triggers needs a superuser; generated rows are consistent by construction, so it is only speed. */
async function fastSession(client: pg.PoolClient): Promise<void> {
  await client.query('SET synchronous_commit = off');
  await client.query('SET session_replication_role = replica').catch(() => {});
}

/** Ids were given explicitly, so each identity must move past them or the service's next insert collides. */
async function bumpIdentities(client: pg.PoolClient): Promise<void> {
  for (const table of TABLES) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), greatest(1, (SELECT coalesce(max(id), 0) FROM ${table})))`,
    );
  }
}

export async function seedDatabase(url: string, options: SeedOptions): Promise<SeedResult> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  const plans = planCompanies(options.scale, options.seed);
  await insertCompanies(url, plans);
  const pool = new pg.Pool({ connectionString: url, max: 1, application_name: 'bench-seed' });
  const client = await pool.connect();
  const rows: Record<string, number> = {};
  try {
    await fastSession(client);
    await client.query('BEGIN');
    const companies = assignRanges(plans, await maxIds(client));
    for (const company of companies) {
      for (const statement of companyStatements(company, options.seed)) {
        const result = await client.query(statement.text, statement.values);
        rows[statement.table] = (rows[statement.table] ?? 0) + (result.rowCount ?? 0);
      }
      if (company.index === 0) log(`  largest company seeded (${((performance.now() - started) / 1000).toFixed(1)} s)`);
    }
    await bumpIdentities(client);
    // After the identities moved on: template rows take their ids from them, like rows the service writes.
    for (const company of companies) {
      for (const statement of templateStatements(company, options.templateRows ?? 0)) {
        const result = await client.query(statement.text, statement.values);
        rows[statement.table] = (rows[statement.table] ?? 0) + (result.rowCount ?? 0);
      }
    }
    await client.query('COMMIT');
    await client.query('RESET session_replication_role').catch(() => {});
    // Fresh statistics and visibility map, as a live database would have: plans and index-only scans depend on them.
    await client.query(
      `VACUUM (ANALYZE) companies, ${[...TABLES, 'task_assignees', 'products', 'product_prices', 'contracts', 'contract_rows', 'workflow_templates', 'workflow_master_tasks'].join(', ')}`,
    );
    return { companies, seconds: (performance.now() - started) / 1000, rows };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
    await pool.end();
  }
}

/** Seeded content without the clock-dependent columns (created_at, updated_at). */
const CHECKED: Record<string, string> = {
  companies: `id::text, name, timezone`,
  people: `id, name, surname, email`,
  members: `id, person_id, role, initials`,
  api_keys: `id, key_hash, kind, array_to_string(scopes, ','), person_id`,
  topics: `id, name, billable`,
  clients: `id, name, status, reg_code, address_city, default_person_id, ext_client_id`,
  contacts: `id, client_id, is_primary, name, surname, email`,
  tasks: `id, client_id, topic_id, title, status, extract(epoch from date)`,
  task_assignees: `task_id, person_id`,
  time_entries: `id, task_id, person_id, extract(epoch from start), extract(epoch from "end"), duration, billable, description`,
  taxes: `id, name, rate`,
  invoices: `id, client_id, status, invoice_number, invoice_date, net_sum, tax_sum, total_sum, paid_sum`,
  invoice_rows: `id, invoice_id, quantity, net_price, discount_rate, net_sum, tax_rate, tax_sum`,
};

/** Row counts and an order-independent checksum per table, over the given companies. */
export async function summarize(
  url: string,
  companyIds: readonly string[],
): Promise<Record<string, { rows: number; checksum: string }>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const out: Record<string, { rows: number; checksum: string }> = {};
    for (const [table, columns] of Object.entries(CHECKED)) {
      const company = table === 'companies' ? 'id' : 'company_id';
      const { rows } = await client.query(
        `SELECT count(*)::int AS n, coalesce(sum(hashtextextended(concat_ws('|', ${columns}), 0)), 0)::text AS sum
        FROM ${table} WHERE ${company} = any($1::uuid[])`,
        [companyIds],
      );
      out[table] = { rows: rows[0].n, checksum: rows[0].sum };
    }
    return out;
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const flags = rawFlags(process.argv.slice(2));
  const scale = Number(flags.get('scale') ?? 1);
  const seed = Number(flags.get('seed') ?? 1);
  const templateRows = Number(flags.get('template-rows') ?? 0);
  if (!(scale > 0) || !Number.isInteger(seed) || !(templateRows >= 0) || templateRows > 100)
    throw new Error(
      'usage: npm run bench:seed -- --scale=0.01 [--seed=1] [--template-rows=N (0-100)] [--data-dir=data/bench]',
    );
  const config = { ...loadConfig(), dataDir: path.resolve(flags.get('data-dir') ?? 'data/bench') };
  const connection = await connectDatabase(config, (msg) => console.log(msg));
  try {
    console.log(`seeding scale ${scale}, seed ${seed} into ${connection.location}`);
    const result = await seedDatabase(connection.url, { scale, seed, templateRows, log: console.log });
    console.log(`seeded in ${result.seconds.toFixed(1)} s`);
    console.table(
      await summarize(
        connection.url,
        result.companies.map((c) => c.id),
      ),
    );
    const largest = result.companies[0]!;
    console.log(`largest company: ${largest.id}, admin key: ${largest.keys[0]!.fullKey}`);
  } finally {
    await connection.stop();
  }
}

if (import.meta.main) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
