import { sql, type RawBuilder } from 'kysely';

// tenant: deliberate SQL — every subquery below is filtered by the company or correlated with the entry's.

const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

/** The client of the invoice that billed the entry (`entry` is a time_entries alias), or null; primary keys only. */
const billedClient = (entry: string) => sql<number | null>`(select (select i.client_id from invoices i
      where i.company_id = l.company_id and i.id = l.invoice_id)
    from invoice_row_entries l where l.company_id = ${ref(entry, 'company_id')} and l.time_entry_id = ${ref(entry, 'id')})`;

/**
 * Tasks that may hold work invoiced to a client other than their own: invoiced_work_tasks, kept by triggers on every
 * change of a task's client or an invoiced entry's task (migration 0066). A superset; any other task's invoiced
 * work was billed under the client it still has.
 */
const foreignWorkTasks = (companyId: string) =>
  sql`(select w.task_id from invoiced_work_tasks w where w.company_id = ${companyId})`;

/**
 * The client an entry's work belongs to: once an invoice has billed it, that invoice's client (a later project or
 * task move leaves already-invoiced work with the old client, as the spec's project move says); until then, its
 * task's. `entry` and `task` are aliases of time_entries and of the entry's task. Two primary-key probes a row:
 * for records; over many rows use workClientOf.
 */
export const workClient = (entry: string, task: string): RawBuilder<number | null> =>
  sql<number | null>`coalesce(${billedClient(entry)}, ${ref(task, 'client_id')})`;

/** workClient for scans (reports): only entries of tasks in invoiced_work_tasks pay for the invoice lookup. */
export const workClientOf = (entry: string, task: string, companyId: string): RawBuilder<number | null> =>
  sql<number | null>`case when ${ref(task, 'id')} in ${foreignWorkTasks(companyId)}
    then ${workClient(entry, task)} else ${ref(task, 'client_id')} end`;

/**
 * "The entry's work belongs to `clientId`", written so the planner still finds the candidates through the tasks:
 * the client's tasks plus the tasks holding work invoiced to it while under another client. Only entries of
 * the few tasks in invoiced_work_tasks that touch this client get the exact check (an array, not a hashed
 * subquery: the latter turned big clients' pages from an index walk into a full scan).
 */
export function workClientIs(entry: string, task: string, companyId: string, clientId: number): RawBuilder<boolean> {
  const invoicedHere = sql`array(select w.task_id from invoiced_work_tasks w
     where w.company_id = ${companyId} and w.client_id = ${clientId})`;
  const touched = sql`array(select w.task_id from invoiced_work_tasks w
      join tasks wt on wt.company_id = w.company_id and wt.id = w.task_id
     where w.company_id = ${companyId} and (w.client_id = ${clientId} or wt.client_id = ${clientId}))`;
  return sql<boolean>`(${ref(task, 'client_id')} = ${clientId} or ${ref(task, 'id')} = any(${invoicedHere}))
    and (${ref(task, 'id')} <> all(${touched}) or ${workClient(entry, task)} = ${clientId})`;
}
