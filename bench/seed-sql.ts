// Set-based INSERT ... SELECT FROM generate_series statements, one per table and company.
// Randomness comes from hashint8extended(row, seed): a pure function of its inputs that PostgreSQL
// keeps stable across versions (hash partitions depend on it), so PostgreSQL 15 and 18 write the same rows.
import { ENTRIES_FROM, ENTRIES_SPAN_SECONDS, INVOICE_ROWS, LARGEST, type SeededCompany } from './plan.ts';

export interface Statement {
  table: string;
  text: string;
  values: unknown[];
}

const FIRST = [
  'Anna',
  'Mart',
  'Liis',
  'Jaan',
  'Kati',
  'Peeter',
  'Maria',
  'Tom',
  'Eva',
  'Oskar',
  'Laura',
  'Ivan',
  'Sofia',
  'Karl',
  'Mia',
  'Leo',
];
const LAST = [
  'Tamm',
  'Saar',
  'Smith',
  'Müller',
  'Kask',
  'Rebane',
  'Ilves',
  'Jones',
  'Garcia',
  'Novak',
  'Kuusk',
  'Lepp',
  'Schmidt',
  'Rossi',
];
const TITLES = ['Consultant', 'Accountant', 'Project manager', 'Developer', 'Designer', 'Assistant', 'Auditor'];
const BRANDS = [
  'Nordic',
  'Baltic',
  'Green',
  'Blue',
  'Prime',
  'Smart',
  'Global',
  'Urban',
  'Alpha',
  'Vista',
  'Polar',
  'Amber',
];
const KINDS = [
  'Logistics',
  'Foods',
  'Systems',
  'Consulting',
  'Partners',
  'Studio',
  'Holdings',
  'Energy',
  'Retail',
  'Labs',
];
const CITIES = ['Tallinn', 'Tartu', 'Riga', 'Helsinki', 'Berlin', 'Stockholm', 'Vilnius', 'Oslo'];
const JOBS = ['CEO', 'CFO', 'Accountant', 'Office manager', 'Owner', 'HR lead', 'Buyer'];
const TOPICS = [
  'Accounting',
  'Payroll',
  'Tax',
  'Advisory',
  'Audit',
  'Reporting',
  'Support',
  'Legal',
  'Internal',
  'Sales',
];
const VERBS = ['Prepare', 'Review', 'Submit', 'Reconcile', 'Draft', 'Check', 'Update', 'File', 'Plan', 'Close'];
const NOUNS = [
  'VAT return',
  'payroll',
  'annual report',
  'invoices',
  'bank statements',
  'contract',
  'budget',
  'forecast',
  'ledger',
];
const NOTES = ['', '', 'Client call', 'Bookkeeping', 'Month-end close', 'Meeting', 'Emails', 'Review', 'Travel'];

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
const T0 = new Date(ENTRIES_FROM).toISOString();

/** Per-company random helpers: `rnd(expr, salt, n)` is a stable integer in [0, n). */
function randomFor(seed: number, company: number) {
  const base = (BigInt(seed) * 100n + BigInt(company)) * 100n;
  const rnd = (expr: string, salt: number, n: number) =>
    `((hashint8extended((${expr})::bigint, ${base + BigInt(salt)}) & 2147483647) % ${Math.max(1, Math.floor(n))})`;
  const pick = (list: readonly string[], expr: string, salt: number) =>
    `(ARRAY[${list.map(quote).join(',')}]::text[])[(1 + ${rnd(expr, salt, list.length)})::int]`;
  return { rnd, pick };
}

function people(c: SeededCompany, seed: number): Statement[] {
  const { pick } = randomFor(seed, c.index);
  const p0 = c.ranges.people.first;
  return [
    {
      table: 'people',
      text: `INSERT INTO people (company_id, id, name, surname, email)
      SELECT $1, ${p0} + i, ${pick(FIRST, 'i', 1)}, ${pick(LAST, 'i', 2)}, 'person' || i || '@company${c.index + 1}.bench.example'
      FROM generate_series(0, ${c.people - 1}) AS i`,
      values: [c.id],
    },
    {
      table: 'members',
      text: `INSERT INTO members (company_id, id, person_id, role, status, initials, title)
      SELECT $1, ${c.ranges.members.first} + i, p.id, CASE WHEN i = 0 THEN 'owner' WHEN i <= 2 THEN 'admin' ELSE 'member' END, 'active',
        upper(left(p.name, 1) || left(p.surname, 1)), ${pick(TITLES, 'i', 3)}
      FROM generate_series(0, ${c.people - 1}) AS i JOIN people p ON p.company_id = $1 AND p.id = ${p0} + i`,
      values: [c.id],
    },
    {
      table: 'api_keys',
      text: `INSERT INTO api_keys (company_id, id, name, key_prefix, key_hash, kind, scopes, person_id)
      SELECT $1, ${c.ranges.api_keys.first} + k.i - 1, 'Bench key ' || k.i, k.prefix, k.hash, k.kind, string_to_array(k.scopes, ','), ${p0} + k.person
      FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[]) WITH ORDINALITY AS k (prefix, hash, kind, scopes, person, i)`,
      values: [
        c.id,
        c.keys.map((k) => k.prefix),
        c.keys.map((k) => k.hash),
        c.keys.map((k) => k.kind),
        c.keys.map((k) => k.scopes.join(',')),
        c.keys.map((k) => k.personIndex),
      ],
    },
  ];
}

function clients(c: SeededCompany, seed: number): Statement[] {
  const { rnd, pick } = randomFor(seed, c.index);
  const per = LARGEST.contactsPerClient;
  return [
    {
      table: 'topics',
      text: `INSERT INTO topics (company_id, id, name, billable)
      SELECT $1, ${c.ranges.topics.first} + i, (ARRAY[${TOPICS.map(quote).join(',')}]::text[])[1 + i % ${TOPICS.length}], CASE WHEN i % 4 = 3 THEN 0 ELSE 1 END
      FROM generate_series(0, ${c.topics - 1}) AS i`,
      values: [c.id],
    },
    {
      table: 'clients',
      text: `INSERT INTO clients (company_id, id, name, status, locale_code, reg_code, vat_code, address_street, address_city, address_zip,
        address_country_code, default_person_id, ext_client_id, client_initials)
      SELECT $1, ${c.ranges.clients.first} + i, g.brand || ' ' || g.kind || ' ' || lpad((i + 1)::text, 5, '0'),
        CASE WHEN g.s < 90 THEN 'active' WHEN g.s < 95 THEN 'inactive' ELSE 'prospect' END, 'en', (10000000 + ${rnd('i', 11, 89_999_999)})::text,
        'EE' || (100000000 + ${rnd('i', 12, 899_999_999)}), (1 + ${rnd('i', 13, 200)}) || ' Main Street', ${pick(CITIES, 'i', 14)},
        lpad(${rnd('i', 15, 99_999)}::text, 5, '0'), 'ee', CASE WHEN ${rnd('i', 16, 2)} = 0 THEN ${c.ranges.people.first} + ${rnd('i', 17, c.people)} END,
        'ext-' || (i + 1), upper(left(g.brand, 1) || left(g.kind, 1))
      FROM (SELECT i, ${rnd('i', 10, 100)} AS s, ${pick(BRANDS, 'i', 18)} AS brand, ${pick(KINDS, 'i', 19)} AS kind
            FROM generate_series(0, ${c.clients - 1}) AS i) AS g`,
      values: [c.id],
    },
    {
      table: 'contacts',
      text: `INSERT INTO contacts (company_id, id, client_id, is_primary, name, surname, email, job_title, mobile_phone, locale_code)
      SELECT $1, ${c.ranges.contacts.first} + j, ${c.ranges.clients.first} + j / ${per}, CASE WHEN j % ${per} = 0 THEN 1 ELSE 0 END,
        ${pick(FIRST, 'j', 20)}, ${pick(LAST, 'j', 21)}, 'contact' || j || '@client' || (j / ${per}) || '.example', ${pick(JOBS, 'j', 22)},
        '+372 5' || lpad(${rnd('j', 23, 1_000_000)}::text, 6, '0'), 'en'
      FROM generate_series(0, ${c.contacts - 1}) AS j`,
      values: [c.id],
    },
  ];
}

function tasks(c: SeededCompany, seed: number): Statement[] {
  const { rnd, pick } = randomFor(seed, c.index);
  const t0 = c.ranges.tasks.first;
  const m = c.people;
  return [
    {
      table: 'tasks',
      text: `INSERT INTO tasks (company_id, id, client_id, topic_id, title, status, type, is_important, date, due_date, has_due_date, estimation, finished_at)
      SELECT $1, ${t0} + i, CASE WHEN ${rnd('i', 30, 10)} < 9 THEN ${c.ranges.clients.first} + ${rnd('i', 31, c.clients)} END,
        CASE WHEN ${rnd('i', 32, 2)} = 0 THEN ${c.ranges.topics.first} + ${rnd('i', 33, c.topics)} END,
        ${pick(VERBS, 'i', 34)} || ' ' || ${pick(NOUNS, 'i', 35)} || ' #' || (i + 1),
        CASE WHEN g.s < 30 THEN 'new' WHEN g.s < 55 THEN 'in_progress' WHEN g.s < 95 THEN 'finished' ELSE 'inactive' END,
        'task', ${rnd('i', 37, 10)} = 0, g.d, CASE WHEN g.due THEN g.d + interval '7 days' END, CASE WHEN g.due THEN 1 ELSE 0 END,
        60 * (1 + ${rnd('i', 38, 16)}) * 15, CASE WHEN g.s >= 55 AND g.s < 95 THEN g.d + interval '3 days' END
      FROM (SELECT i, ${rnd('i', 36, 100)} AS s, ${rnd('i', 39, 10)} < 4 AS due,
              timestamptz '${T0}' + make_interval(secs => ${rnd('i', 40, ENTRIES_SPAN_SECONDS)}) AS d
            FROM generate_series(0, ${c.tasks - 1}) AS i) AS g`,
      values: [c.id],
    },
    {
      // Everyone gets one assignee; three in ten a second, different one.
      table: 'task_assignees',
      text: `INSERT INTO task_assignees (company_id, task_id, person_id)
      SELECT $1, ${t0} + x.i, ${c.ranges.people.first} + x.a FROM (
        SELECT i, ${rnd('i', 41, m)} AS a FROM generate_series(0, ${c.tasks - 1}) AS i
        UNION ALL
        SELECT i, (${rnd('i', 41, m)} + 1 + ${rnd('i', 43, m - 1)}) % ${m} FROM generate_series(0, ${c.tasks - 1}) AS i WHERE ${rnd('i', 42, 10)} < 3
      ) AS x`,
      values: [c.id],
    },
  ];
}

/**
 * Entry i belongs to person i % people, in that person's (i / people)-th slot of the three years:
 * a person's entries never overlap and none is running, as in a tidy real ledger.
 */
function timeEntries(c: SeededCompany, seed: number): Statement {
  const { rnd, pick } = randomFor(seed, c.index);
  const m = c.people;
  const slot = Math.floor(ENTRIES_SPAN_SECONDS / Math.ceil(c.entries / m));
  const jitter = Math.floor(slot * 0.2);
  const minDuration = Math.min(900, Math.floor(slot * 0.3));
  const durationRange = Math.min(8 * 3600, Math.floor(slot * 0.5));
  return {
    table: 'time_entries',
    text: `INSERT INTO time_entries (company_id, id, task_id, person_id, start, "end", duration, billable, description)
      SELECT $1, ${c.ranges.time_entries.first} + i, ${c.ranges.tasks.first} + ${rnd('i', 50, c.tasks)}, ${c.ranges.people.first} + i % ${m},
        g.start, g.start + make_interval(secs => g.d), g.d, CASE WHEN ${rnd('i', 53, 10)} < 8 THEN 1 ELSE 0 END, ${pick(NOTES, 'i', 54)}
      FROM (SELECT i, timestamptz '${T0}' + make_interval(secs => (i / ${m}) * ${slot} + ${rnd('i', 51, jitter)}) AS start,
              ${minDuration} + ${rnd('i', 52, durationRange)} AS d
            FROM generate_series(0, ${c.entries - 1}) AS i) AS g`,
    values: [c.id],
  };
}

const TAX_RATES = ['0.22', '0.09', '0'];

/**
 * Taxes, invoices over the three years (one in ten a draft without a number) and their rows; each row's
 * sums are rounded as the service rounds them (half away from zero, to the cent), and each invoice's
 * totals are the sums of its rows, as the service keeps them.
 */
function invoices(c: SeededCompany, seed: number): Statement[] {
  const { rnd } = randomFor(seed, c.index);
  const i0 = c.ranges.invoices.first;
  const x0 = c.ranges.taxes.first;
  const bigRows = c.bigInvoices * INVOICE_ROWS.big;
  const rates = `(ARRAY[${TAX_RATES.join(',')}]::numeric[])`;
  return [
    {
      table: 'taxes',
      text: `INSERT INTO taxes (company_id, id, name, rate)
      SELECT $1, ${x0} + k - 1, 'VAT ' || round(r * 100) || '%', r FROM unnest(${rates}) WITH ORDINALITY AS t (r, k)`,
      values: [c.id],
    },
    {
      table: 'invoices',
      text: `INSERT INTO invoices (company_id, id, client_id, status, invoice_number, invoice_date, due_date, currency, client_name,
        seller_name, locale_code, reference_number, sent_at, paid_at)
      SELECT $1, ${i0} + i, g.client, g.status, CASE WHEN g.status <> 'draft' THEN 'B' || lpad((i + 1)::text, 7, '0') END,
        g.d, g.d + 14, 'EUR', 'Bench client ' || g.client, ${quote(c.name)}, 'en', (1000 + i)::text,
        CASE WHEN g.status IN ('sent', 'paid') THEN g.d + interval '1 day' END, CASE WHEN g.status = 'paid' THEN g.d + interval '10 days' END
      FROM (SELECT i, ${c.ranges.clients.first} + ${rnd('i', 70, c.clients)} AS client, date '2023-01-01' + ${rnd('i', 72, 1095)}::int AS d,
              CASE WHEN ${rnd('i', 71, 100)} < 10 THEN 'draft' WHEN ${rnd('i', 71, 100)} < 30 THEN 'created'
                   WHEN ${rnd('i', 71, 100)} < 70 THEN 'sent' ELSE 'paid' END AS status
            FROM generate_series(0, ${c.invoices - 1}) AS i) AS g`,
      values: [c.id],
    },
    {
      table: 'invoice_rows',
      text: `INSERT INTO invoice_rows (company_id, id, invoice_id, description, quantity, unit, net_price, net_sum, discount_rate, tax_id,
        tax_rate, tax_name, tax_sum)
      SELECT $1, ${c.ranges.invoice_rows.first} + j, ${i0} + g.inv, 'Services, part ' || (j % 1000 + 1), g.q, 'h', g.p, g.net, g.disc,
        ${x0} + g.k, ${rates}[g.k + 1], 'VAT ' || round(${rates}[g.k + 1] * 100) || '%', round(g.net * ${rates}[g.k + 1], 2)
      FROM (SELECT j, q, p, disc, k, inv, round(q * p * (1 - disc / 100), 2) AS net FROM (
              SELECT j, (1 + ${rnd('j', 60, 16)})::numeric / 2 AS q, (1000 + ${rnd('j', 61, 20000)})::numeric / 100 AS p,
                CASE WHEN ${rnd('j', 63, 10)} < 2 THEN 10 ELSE 0 END::numeric AS disc, ${rnd('j', 62, TAX_RATES.length)} AS k,
                CASE WHEN j < ${bigRows} THEN j / ${INVOICE_ROWS.big}
                     ELSE ${c.bigInvoices} + (j - ${bigRows}) / ${INVOICE_ROWS.typical} END AS inv
              FROM generate_series(0, ${c.invoiceRows - 1}) AS j) AS r) AS g`,
      values: [c.id],
    },
    {
      table: 'invoice_sums',
      text: `UPDATE invoices i SET net_sum = s.n, tax_sum = s.t, total_sum = s.n + s.t,
        paid_sum = CASE WHEN i.status = 'paid' THEN s.n + s.t ELSE 0 END
      FROM (SELECT invoice_id, sum(net_sum) AS n, sum(tax_sum) AS t FROM invoice_rows WHERE company_id = $1 GROUP BY invoice_id) AS s
      WHERE i.company_id = $1 AND i.id = s.invoice_id`,
      values: [c.id],
    },
  ];
}

/**
 * The billing engine's inputs for the largest company: every client under an active contract since the entries
 * begin (time rounded to 15 minutes), with an hourly row on a product priced at 85 and a monthly fee of 150.
 * Ids come from the identity sequences (no other company seeds these tables).
 */
function contracts(c: SeededCompany): Statement[] {
  if (c.index !== 0) return [];
  return [
    {
      table: 'contracts',
      text: `WITH p AS (INSERT INTO products (company_id, name, unit, bill_by, type)
          VALUES ($1, 'Bench consulting', 'h', 'hour', 'time') RETURNING id),
        pp AS (INSERT INTO product_prices (company_id, product_id, net_price) SELECT $1, id, 85 FROM p),
        k AS (INSERT INTO contracts (company_id, client_id, name, status, date_from, settings)
          SELECT $1, ${c.ranges.clients.first} + i, 'Bench contract ' || (i + 1), 'active', date '2023-01-01',
                 '{"invoice_time_rounding": 15}'::jsonb
            FROM generate_series(0, ${c.clients - 1}) AS i RETURNING id),
        hourly AS (INSERT INTO contract_rows (company_id, contract_id, product_id, invoice_time_min)
          SELECT $1, k.id, p.id, 30 FROM k CROSS JOIN p)
      INSERT INTO contract_rows (company_id, contract_id, description, quantity, net_price)
        SELECT $1, k.id, 'Monthly fee', 1, 150 FROM k`,
      values: [c.id],
    },
  ];
}

/** Every statement for one company, in foreign-key order. */
export function companyStatements(c: SeededCompany, seed: number): Statement[] {
  return [
    ...people(c, seed),
    ...clients(c, seed),
    ...tasks(c, seed),
    timeEntries(c, seed),
    ...invoices(c, seed),
    ...contracts(c),
  ];
}
