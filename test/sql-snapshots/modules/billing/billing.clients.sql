-- src/modules/billing/billing.clients.ts: its raw SQL, written by npm run sql:snapshots (do not edit)

-- billedClient
(select (select i.client_id from invoices i
  where i.company_id = l.company_id and i.id = l.invoice_id)
from invoice_row_entries l where l.company_id = ${ref(entry, 'company_id')} and l.time_entry_id = ${ref(entry, 'id')})

-- foreignWorkTasks
(select w.task_id from invoiced_work_tasks w where w.company_id = ${companyId})

-- workClient
coalesce(${billedClient(entry)}, ${ref(task, 'client_id')})

-- workClientOf
case when ${ref(task, 'id')} in ${foreignWorkTasks(companyId)}
then ${workClient(entry, task)} else ${ref(task, 'client_id')} end

-- workClientIs
array(select w.task_id from invoiced_work_tasks w
where w.company_id = ${companyId} and w.client_id = ${clientId})

-- workClientIs
array(select w.task_id from invoiced_work_tasks w
 join tasks wt on wt.company_id = w.company_id and wt.id = w.task_id
where w.company_id = ${companyId} and (w.client_id = ${clientId} or wt.client_id = ${clientId}))

-- workClientIs
(${ref(task, 'client_id')} = ${clientId} or ${ref(task, 'id')} = any(${invoicedHere}))
and (${ref(task, 'id')} <> all(${touched}) or ${workClient(entry, task)} = ${clientId})
