-- The audit trail of a financial write (its path and field names) is shown only to keys with the financials tier
-- (issue 24, decision 0050). Set when the row is written; existing rows by the entities whose reads need the tier
-- and the one financial route whose entity is not financial (POST /tasks/{id}/reclaim).
ALTER TABLE activities ADD COLUMN financial boolean NOT NULL DEFAULT false;
UPDATE activities SET financial = true
 WHERE entity IN ('agreement', 'billing_settings', 'budget', 'contract', 'flextime', 'integration', 'invoice',
                  'invoice_seller', 'monitor', 'product_price', 'reclaim', 'tax')
    OR path ~ '^/api/v3/tasks/[0-9]+/reclaim$';

-- Invoiced work keeps its invoice's client when its task changes client (the spec's project move). The time-entry
-- client_id filter finds its candidates by task: the client's own tasks, plus the tasks listed here for it, i.e.
-- tasks that hold work invoiced to that client while belonging to another. Filled by the triggers below on every
-- path that changes a task's client or an invoiced entry's task; a row may go stale (it is only a candidate, each
-- entry is then checked), never missing.
CREATE TABLE invoiced_work_tasks (
  company_id uuid NOT NULL,
  client_id integer NOT NULL,
  task_id integer NOT NULL,
  PRIMARY KEY (company_id, client_id, task_id)
);

CREATE FUNCTION note_invoiced_work_of_task() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO invoiced_work_tasks (company_id, client_id, task_id)
  SELECT DISTINCT NEW.company_id, i.client_id, NEW.id
    FROM time_entries te
    JOIN invoice_row_entries l ON l.company_id = te.company_id AND l.time_entry_id = te.id
    JOIN invoices i ON i.company_id = l.company_id AND i.id = l.invoice_id
   WHERE te.company_id = NEW.company_id AND te.task_id = NEW.id AND i.client_id IS DISTINCT FROM NEW.client_id
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER tasks_invoiced_work AFTER UPDATE OF client_id ON tasks
  FOR EACH ROW WHEN (OLD.client_id IS DISTINCT FROM NEW.client_id) EXECUTE FUNCTION note_invoiced_work_of_task();

CREATE FUNCTION note_invoiced_work_of_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO invoiced_work_tasks (company_id, client_id, task_id)
  SELECT NEW.company_id, i.client_id, NEW.task_id
    FROM invoice_row_entries l
    JOIN invoices i ON i.company_id = l.company_id AND i.id = l.invoice_id
   WHERE l.company_id = NEW.company_id AND l.time_entry_id = NEW.id
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER time_entries_invoiced_work AFTER UPDATE OF task_id ON time_entries
  FOR EACH ROW WHEN (OLD.task_id IS DISTINCT FROM NEW.task_id) EXECUTE FUNCTION note_invoiced_work_of_entry();
