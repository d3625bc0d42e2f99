// Keeps the benchmark data generator from rotting: it runs at a tiny scale against fresh test
// databases, and the same seed must give the same rows. The benchmarks themselves never run here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { cloneDatabase } from '../helpers.ts';
import { seedDatabase, summarize } from '../../bench/seed.ts';
import { planCompanies, COMPANIES, KEYS_PER_COMPANY } from '../../bench/plan.ts';
import { hashKey } from '../../src/platform/keys.ts';

const SCALE = 0.001;

async function seedFresh(seed: number) {
  const url = await cloneDatabase();
  const result = await seedDatabase(url, { scale: SCALE, seed });
  return {
    url,
    result,
    summary: await summarize(
      url,
      result.companies.map((c) => c.id),
    ),
  };
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

test('the same seed writes the same rows; another seed writes other rows', async () => {
  const [first, second, other] = await Promise.all([seedFresh(7), seedFresh(7), seedFresh(8)]);
  assert.deepEqual(second.summary, first.summary);
  assert.notEqual(other.summary.time_entries!.checksum, first.summary.time_entries!.checksum);
  assert.notEqual(other.summary.companies!.checksum, first.summary.companies!.checksum);

  const plans = planCompanies(SCALE, 7);
  const sum = (f: (p: (typeof plans)[number]) => number) => plans.reduce((n, p) => n + f(p), 0);
  assert.equal(first.summary.companies!.rows, COMPANIES);
  assert.equal(first.summary.api_keys!.rows, COMPANIES * KEYS_PER_COMPANY);
  assert.equal(
    first.summary.clients!.rows,
    sum((p) => p.clients),
  );
  assert.equal(
    first.summary.contacts!.rows,
    sum((p) => p.contacts),
  );
  assert.equal(
    first.summary.tasks!.rows,
    sum((p) => p.tasks),
  );
  assert.equal(
    first.summary.time_entries!.rows,
    sum((p) => p.entries),
  );
  assert.equal(
    first.result.rows.time_entries,
    sum((p) => p.entries),
  );
  assert.equal(
    first.summary.invoices!.rows,
    sum((p) => p.invoices),
  );
  assert.equal(
    first.summary.invoice_rows!.rows,
    sum((p) => p.invoiceRows),
  );
});

test('seeded invoices add up as the service keeps them: totals are the sums of rounded rows', async () => {
  const { url, result } = await seedFresh(5);
  const ids = result.companies.map((c) => c.id);
  const [drift] = await query<{ n: number }>(
    url,
    `select count(*)::int as n from invoices i
     join (select company_id, invoice_id, sum(net_sum) as n, sum(tax_sum) as t from invoice_rows group by 1, 2) s
       on s.company_id = i.company_id and s.invoice_id = i.id
     where i.company_id = any($1::uuid[]) and (i.net_sum <> s.n or i.tax_sum <> s.t or i.total_sum <> s.n + s.t)`,
    [ids],
  );
  assert.equal(drift!.n, 0);
  const largest = result.companies[0]!;
  const [big] = await query<{ n: number }>(
    url,
    'select count(*)::int as n from invoice_rows where company_id = $1 and invoice_id = $2',
    [largest.id, largest.ranges.invoices.first],
  );
  assert.equal(big!.n, 200);
  const [numbers] = await query<{ drafts_numbered: number }>(
    url,
    `select count(*) filter (where status = 'draft' and invoice_number is not null)::int as drafts_numbered
     from invoices where company_id = any($1::uuid[])`,
    [ids],
  );
  assert.equal(numbers!.drafts_numbered, 0);
});

test('seeded data is usable by the service: keys match, identities moved past the ids, ledgers do not overlap', async () => {
  const { url, result } = await seedFresh(3);
  const largest = result.companies[0]!;
  const key = largest.keys[0]!;
  const [row] = await query<{ scopes: string[]; kind: string }>(
    url,
    'select scopes, kind from api_keys where company_id = $1 and key_hash = $2',
    [largest.id, hashKey(key.fullKey)],
  );
  assert.deepEqual(row, { scopes: ['read', 'write', 'admin'], kind: 'integration' });

  // An insert without an id takes the next identity value: it must not collide with a seeded id.
  const [person] = await query<{ id: number }>(
    url,
    `insert into people (company_id, name) values ($1, 'New') returning id`,
    [largest.id],
  );
  assert.ok(person!.id > largest.ranges.people.first + largest.ranges.people.count - 1);

  const [overlaps] = await query<{ n: number }>(
    url,
    `select count(*)::int as n from time_entries a join time_entries b
    on b.company_id = a.company_id and b.person_id = a.person_id and b.id > a.id and b.start < a."end" and b."end" > a.start
    where a.company_id = $1`,
    [largest.id],
  );
  assert.equal(overlaps!.n, 0);
  const [running] = await query<{ n: number }>(
    url,
    `select count(*)::int as n from time_entries where company_id = $1 and "end" is null`,
    [largest.id],
  );
  assert.equal(running!.n, 0);
});

test('--template-rows adds N × each company’s task rows as master tasks of plan-client templates', async () => {
  const url = await cloneDatabase();
  const result = await seedDatabase(url, { scale: SCALE, seed: 3, templateRows: 2 });
  const ids = result.companies.map((c) => c.id);
  const counts = await query<{ company_id: string; work: number; masters: number; linked: number; plans: number }>(
    url,
    `select c.id as company_id,
       (select count(*)::int from tasks t where t.company_id = c.id and t.template_kind is null) as work,
       (select count(*)::int from tasks t join clients pc on pc.company_id = t.company_id and pc.id = t.client_id
          where t.company_id = c.id and t.template_kind = 'workflow_template' and pc.type = 'plan') as masters,
       (select count(*)::int from workflow_master_tasks m where m.company_id = c.id) as linked,
       (select count(*)::int from workflow_templates w join clients pc on pc.company_id = w.company_id
          and pc.id = w.plan_client_id where w.company_id = c.id and pc.type = 'plan') as plans
     from companies c where c.id = any($1::uuid[]) order by c.id`,
    [ids],
  );
  assert.equal(counts.length, ids.length);
  for (const row of counts) {
    assert.ok(row.work > 0);
    assert.equal(row.masters, 2 * row.work, `company ${row.company_id}`);
    assert.equal(row.linked, row.masters);
    assert.equal(row.plans, Math.ceil(row.masters / 30));
  }
  assert.equal(
    result.rows.workflow_master_tasks,
    counts.reduce((n, r) => n + r.linked, 0),
  );
  // The ids came from the identities: the service's next task insert does not collide.
  const [next] = await query<{ ok: boolean }>(
    url,
    `select nextval(pg_get_serial_sequence('tasks', 'id')) > (select max(id) from tasks) as ok`,
  );
  assert.equal(next!.ok, true);
});
