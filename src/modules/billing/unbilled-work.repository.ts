import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { companyValue, tenant } from '../../platform/tenant-table.ts';
import { periodStart, workSql, type WorkWindow } from './billing.work.repository.ts';

/** All of time: the rollup holds every unbilled entry, whatever window a report asks for later. */
const ALL_TIME = { from: '-infinity', to: 'infinity' };

/** clients null: every client of the company. */
const only = (clients: readonly number[] | null): WorkWindow =>
  clients === null ? ALL_TIME : { ...ALL_TIME, clients };

/**
 * The groups of unbilled work as the engine would bill it today (the shared workSql), one per hourly row, local
 * day, task (0 when the contract summarizes) and price, with the contract terms the report needs.
 */
function groupsSql(ctx: Ctx, clients: readonly number[] | null) {
  return sql`${workSql(ctx, only(clients))}
    select w.client_id, w.contract_id, w.row_id, w.day, case when w.summarized then 0 else w.task_id end as task_key,
           w.price, w.invoice_period, w.invoice_day, w.currency, w.discount_rate,
           sum(w.billed_secs)::bigint as billed_secs, count(*)::int as entries
      from w group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`;
}

const COLUMNS = sql.raw(`client_id, contract_id, row_id, day, task_key, price, invoice_period, invoice_day, currency,
  discount_rate, billed_secs, entries`);

/** Replaces the groups of the clients (null: the whole company) with what their entries say now. */
export async function rebuild(ctx: Ctx, clients: readonly number[] | null): Promise<void> {
  const which = clients === null ? sql`` : sql`and g.client_id = any(${[...clients]}::int[])`;
  await sql`delete from unbilled_work g where ${tenant(ctx, 'g')} ${which}`.execute(ctx.db);
  // tenant: deliberate SQL — workSql filters every table it reads by the caller's company.
  await sql`insert into unbilled_work (company_id, ${COLUMNS})
    select ${companyValue(ctx)}, g.* from (${groupsSql(ctx, clients)}) g`.execute(ctx.db);
}

/** Drops every group of the company (before a full rebuild one client at a time). */
export async function clear(ctx: Ctx): Promise<void> {
  await sql`delete from unbilled_work g where ${tenant(ctx, 'g')}`.execute(ctx.db);
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
 * Time not billed, from the groups, per contract and period: summed per row, period, task and price first, so that
 * each such group's net is rounded exactly as its invoice row would be (seconds and value stay numeric).
 */
export function workPartsSql(ctx: Ctx, w: WorkWindow) {
  const client = w.clientId ?? null;
  const excluded = [...(w.excluded ?? [])];
  const period = periodStart(sql.ref('g.day'), sql.ref('g.invoice_period'));
  return sql`with tl as (
      select g.row_id, g.client_id, g.contract_id, g.invoice_period, g.invoice_day, g.currency, g.discount_rate,
             ${period} as period_from, g.task_key, g.price, sum(g.billed_secs) as secs, sum(g.entries) as n
        from unbilled_work g
       where ${tenant(ctx, 'g')} and g.day between ${w.from}::date and ${w.to}::date
         and (${client}::int is null or g.client_id = ${client}::int) and g.client_id <> all(${excluded}::int[])
       group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    select tl.client_id, tl.contract_id, tl.invoice_period, tl.invoice_day, tl.currency, tl.period_from,
           sum(tl.secs) as secs, sum(tl.n)::int as entries,
           sum(case when tl.price is null then tl.n else 0 end)::int as unpriced,
           coalesce(sum(round(round(tl.secs / 3600.0, 4) * tl.price * (1 - tl.discount_rate / 100), 2)), 0) as value
      from tl group by 1, 2, 3, 4, 5, 6`;
}

/**
 * The difference between the stored groups and a recomputation from the entries (both all of time): one row per
 * group that is missing, extra or different. Empty when the rollup is exact.
 */
export async function differences(ctx: Ctx) {
  const stored = sql`select ${COLUMNS} from unbilled_work g where ${tenant(ctx, 'g')}`;
  const result = await sql<{ side: string; client_id: number; row_id: number; day: string; task_key: number }>`
    with fresh as (${groupsSql(ctx, null)}), stored as (${stored})
    select 'missing' as side, client_id, row_id, day::text, task_key from (select * from fresh except all select * from stored) a
    union all
    select 'extra', client_id, row_id, day::text, task_key from (select * from stored except all select * from fresh) b
    order by 2, 3, 4, 5, 1 limit 100`.execute(ctx.db);
  return result.rows;
}
