import { sql, type RawBuilder } from 'kysely';

// tenant: deliberate SQL — every subquery below is correlated with the entry's company_id or filtered by the company.

const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);

/** The client of the invoice that billed the entry (`entry` is a time_entries alias), or null when none has. */
const billedClient = (entry: string) => sql<number | null>`(select i.client_id from invoice_row_entries l
    join invoices i on i.company_id = l.company_id and i.id = l.invoice_id
   where l.company_id = ${ref(entry, 'company_id')} and l.time_entry_id = ${ref(entry, 'id')})`;

/**
 * The client an entry's work belongs to: once an invoice has billed it, that invoice's client (a later project
 * or task move leaves already-invoiced work with the old client, as the spec's project move says); until then,
 * its task's. `entry` and `task` are aliases of time_entries and of the entry's task.
 */
export const workClient = (entry: string, task: string): RawBuilder<number | null> =>
  sql<number | null>`coalesce(${billedClient(entry)}, ${ref(task, 'client_id')})`;

/**
 * "The entry's work belongs to `clientId`", written so an index finds the candidates: the client's tasks, plus
 * the tasks holding work invoiced to it since moved to another client (invoiced_work_tasks, kept by triggers on
 * every change of a task's client or an invoiced entry's task; migration 0066). Each candidate entry is then
 * checked against workClient.
 */
export function workClientIs(entry: string, task: string, companyId: string, clientId: number): RawBuilder<boolean> {
  const movedAway = sql`array(select w.task_id from invoiced_work_tasks w
     where w.company_id = ${companyId} and w.client_id = ${clientId})`;
  return sql<boolean>`(${ref(task, 'client_id')} = ${clientId} or ${ref(task, 'id')} = any(${movedAway}))
    and ${workClient(entry, task)} = ${clientId}`;
}
