import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { companyValue, tenant } from '../../platform/tenant-table.ts';
import { PERIOD_KINDS, periodOf } from './billing.periods.ts';
import { periodLength, periodStart, workSql, type WorkWindow } from './billing.work.repository.ts';

/** All of time: the rollup holds every unbilled entry, whatever window a report asks for later. */
const ALL_TIME = { from: '-infinity', to: 'infinity' };

/** clients null: every client of the company. */
const only = (clients: readonly number[] | null): WorkWindow =>
  clients === null ? ALL_TIME : { ...ALL_TIME, clients };

/**
 * The groups of unbilled work as the engine would bill it today (the shared workSql), one per hourly row, local
 * day, task (0 when the contract summarizes) and price, with the contract terms the report needs and the invoice
 * period the day falls in.
 */
function groupsSql(ctx: Ctx, clients: readonly number[] | null) {
  const from = periodStart(sql.ref('w.day'), sql.ref('w.invoice_period'));
  return sql`${workSql(ctx, only(clients))}
    select w.client_id, w.contract_id, w.row_id, w.day, ${from} as period_from,
           (${from} + ${periodLength(sql.ref('w.invoice_period'))})::date - 1 as period_until,
           case when w.summarized then 0 else w.task_id end as task_key,
           w.price, w.invoice_period, w.invoice_day, w.currency, w.discount_rate,
           sum(w.billed_secs)::bigint as billed_secs, count(*)::int as entries
      from w group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12`;
}

const DAY_COLUMNS = sql.raw(`client_id, contract_id, row_id, day, period_from, period_until, task_key, price,
  invoice_period, invoice_day, currency, discount_rate, billed_secs, entries`);
const PERIOD_COLUMNS = sql.raw(`client_id, contract_id, row_id, period_from, period_until, task_key, price,
  invoice_period, invoice_day, currency, billed_secs, entries, value`);

/** An invoice row's net from its billed seconds, as the engine rounds it: hours to 4 places, then to cents. */
const netOf = (secs: RawBuilder<unknown>, price: string, discount: string) =>
  sql`round(round(${secs} / 3600.0, 4) * ${sql.ref(price)} * (1 - ${sql.ref(discount)} / 100), 2)`;

/** Whole-period groups from day groups `g` (the stored ones, or a recomputation in the check). */
const periodsOf = (days: RawBuilder<unknown>) => sql`select g.client_id, g.contract_id, g.row_id, g.period_from,
    g.period_until, g.task_key, g.price, g.invoice_period, g.invoice_day, g.currency,
    sum(g.billed_secs)::bigint as billed_secs, sum(g.entries)::int as entries,
    ${netOf(sql`sum(g.billed_secs)`, 'g.price', 'g.discount_rate')} as value
  from (${days}) g group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, g.discount_rate`;

/** The groups `g` of the clients (null: all of them). */
const ofClients = (clients: readonly number[] | null) =>
  clients === null ? sql`` : sql`and g.client_id = any(${[...clients]}::int[])`;

/** Replaces the groups of the clients (null: the whole company) with what their entries say now. */
export async function rebuild(ctx: Ctx, clients: readonly number[] | null): Promise<void> {
  await drop(ctx, clients);
  // tenant: deliberate SQL — workSql filters every table it reads by the caller's company.
  await sql`insert into unbilled_work (company_id, ${DAY_COLUMNS})
    select ${companyValue(ctx)}, g.* from (${groupsSql(ctx, clients)}) g`.execute(ctx.db);
  const days = sql`select * from unbilled_work g where ${tenant(ctx, 'g')} ${ofClients(clients)}`;
  await sql`insert into unbilled_work_periods (company_id, ${PERIOD_COLUMNS})
    select ${companyValue(ctx)}, p.* from (${periodsOf(days)}) p`.execute(ctx.db);
  // A company's first build adds its every group at once: without fresh statistics the first reports would plan
  // for a handful of rows (sorting 200,000 groups instead of hashing them) until autovacuum came by.
  if (clients === null) await sql`analyze unbilled_work, unbilled_work_periods`.execute(ctx.db);
}

/** Drops the groups of the clients (null: of the whole company). */
export async function drop(ctx: Ctx, clients: readonly number[] | null): Promise<void> {
  await sql`delete from unbilled_work g where ${tenant(ctx, 'g')} ${ofClients(clients)}`.execute(ctx.db);
  await sql`delete from unbilled_work_periods g where ${tenant(ctx, 'g')} ${ofClients(clients)}`.execute(ctx.db);
}

/** The clients marked since the last catch-up (null among them: the whole company), taken off the log. */
export async function takeDirty(ctx: Ctx): Promise<Array<number | null>> {
  const rows = await sql<{ client_id: number | null }>`delete from unbilled_work_dirty d where ${tenant(ctx, 'd')}
    returning d.client_id`.execute(ctx.db);
  return [...new Set(rows.rows.map((r) => r.client_id))];
}

/** Puts clients back on the log (their rebuild failed: the next catch-up tries again). */
export async function markDirty(ctx: Ctx, clients: readonly number[]): Promise<void> {
  if (clients.length === 0) return;
  await sql`insert into unbilled_work_dirty (company_id, client_id)
    select ${companyValue(ctx)}, c from unnest(${[...clients]}::int[]) c`.execute(ctx.db);
}

/** Serializes catch-ups of one company (held to the end of the transaction). */
export async function lockCompany(ctx: Ctx): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended('unbilled_work:' || ${companyValue(ctx)}::text, 0))`.execute(
    ctx.db,
  );
}

export async function builtAt(ctx: Ctx): Promise<string | null> {
  const row = await sql<{ built_at: string }>`select built_at::text from unbilled_work_state s
    where ${tenant(ctx, 's')}`.execute(ctx.db);
  return row.rows[0]?.built_at ?? null;
}

export async function recordCatchUp(ctx: Ctx, full: boolean): Promise<void> {
  await sql`insert into unbilled_work_state (company_id, built_at, caught_up_at)
    values (${companyValue(ctx)}, now(), now())
    on conflict (company_id) do update set caught_up_at = now(),
      built_at = case when ${full} then now() else unbilled_work_state.built_at end`.execute(ctx.db);
}

/**
 * The periods a window cuts, as index ranges: the earliest start of a period (of any kind) that holds the window's
 * first day and starts before it, and the latest end of one that holds its last day and ends after it. null: the
 * window starts (ends) on a boundary of every kind, so no period is cut there (a year from 1 January, a month).
 */
function edgesOf(w: WorkWindow) {
  const starts = PERIOD_KINDS.map((k) => periodOf(w.from, k).from).filter((d) => d < w.from);
  const ends = PERIOD_KINDS.map((k) => periodOf(w.to, k).until).filter((d) => d > w.to);
  return { before: starts.sort()[0] ?? null, after: ends.sort().at(-1) ?? null };
}

/**
 * Time not billed, per contract and period: the whole-period groups of the periods the window covers, and for a
 * period the window cuts, its days inside the window summed per row, task and price and rounded as the engine
 * would round that row. Seconds and value stay numeric.
 */
export function workPartsSql(ctx: Ctx, w: WorkWindow) {
  const client = w.clientId ?? null;
  const which = (alias: string) =>
    sql`(${client}::int is null or ${sql.ref(`${alias}.client_id`)} = ${client}::int)
        and ${sql.ref(`${alias}.client_id`)} <> all(${[...(w.excluded ?? [])]}::int[])`;
  const cut = (edge: RawBuilder<boolean>) => sql`select g.client_id, g.contract_id, g.invoice_period, g.invoice_day,
      g.currency, g.period_from, sum(g.billed_secs) as secs, sum(g.entries) as n, g.price,
      ${netOf(sql`sum(g.billed_secs)`, 'g.price', 'g.discount_rate')} as value
    from unbilled_work g
   where ${tenant(ctx, 'g')} and ${edge} and g.day between ${w.from}::date and ${w.to}::date and ${which('g')}
   group by g.row_id, g.client_id, g.contract_id, g.invoice_period, g.invoice_day, g.currency, g.discount_rate,
            g.period_from, g.task_key, g.price`;
  const edges = edgesOf(w);
  return sql`with tl as (
      select p.client_id, p.contract_id, p.invoice_period, p.invoice_day, p.currency, p.period_from,
             p.billed_secs as secs, p.entries as n, p.price, p.value
        from unbilled_work_periods p
       where ${tenant(ctx, 'p')} and p.period_from >= ${w.from}::date and p.period_until <= ${w.to}::date
         and ${which('p')}
      ${edges.before === null ? sql`` : sql`union all ${cut(sql`g.period_from >= ${edges.before}::date and g.period_from < ${w.from}::date`)}`}
      ${edges.after === null ? sql`` : sql`union all ${cut(sql`g.period_until > ${w.to}::date and g.period_until <= ${edges.after}::date and g.period_from >= ${w.from}::date`)}`})
    select tl.client_id, tl.contract_id, tl.invoice_period, tl.invoice_day, tl.currency, tl.period_from,
           sum(tl.secs) as secs, sum(tl.n)::int as entries,
           sum(case when tl.price is null then tl.n else 0 end)::int as unpriced, coalesce(sum(tl.value), 0) as value
      from tl group by 1, 2, 3, 4, 5, 6`;
}

/**
 * The difference between the stored groups and a recomputation from the entries (both all of time): one row per
 * group that is missing, extra or different. Empty when the rollup is exact.
 */
export async function differences(ctx: Ctx) {
  const storedDays = sql`select ${DAY_COLUMNS} from unbilled_work g where ${tenant(ctx, 'g')}`;
  const storedPeriods = sql`select ${PERIOD_COLUMNS} from unbilled_work_periods g where ${tenant(ctx, 'g')}`;
  const result = await sql<{ side: string; client_id: number; row_id: number; day: string; task_key: number }>`
    with fresh as materialized (${groupsSql(ctx, null)}), stored as (${storedDays}),
      fresh_periods as (${periodsOf(sql`select * from fresh`)}), stored_periods as (${storedPeriods})
    select 'missing' as side, client_id, row_id, day::text, task_key from (select * from fresh except all select * from stored) a
    union all
    select 'extra', client_id, row_id, day::text, task_key from (select * from stored except all select * from fresh) b
    union all
    select 'missing period', client_id, row_id, period_from::text, task_key
      from (select * from fresh_periods except all select * from stored_periods) c
    union all
    select 'extra period', client_id, row_id, period_from::text, task_key
      from (select * from stored_periods except all select * from fresh_periods) d
    order by 2, 3, 4, 5, 1 limit 100`.execute(ctx.db);
  return result.rows;
}
