-- The billing engine (POST /clients/{id}/invoices) links what it bills to the invoice row that bills it, so each
-- time entry and each contract row's period is billed once. Deleting the row (a draft's row) releases what it billed;
-- annulling an invoice deletes its links in the same transaction (docs/decisions/0023).

-- Invoices the engine made for a period of time work: once finalized, they lock that period for the client.
ALTER TABLE invoices ADD COLUMN bills_time boolean NOT NULL DEFAULT false;
CREATE INDEX invoices_locked_periods ON invoices (company_id, client_id, period_from, period_until)
  WHERE bills_time AND status IN ('created', 'sent', 'paid');

CREATE TABLE invoice_row_entries (
  company_id uuid NOT NULL,
  time_entry_id integer NOT NULL,
  invoice_row_id integer NOT NULL,
  invoice_id integer NOT NULL,
  PRIMARY KEY (company_id, time_entry_id),
  FOREIGN KEY (company_id, invoice_row_id) REFERENCES invoice_rows (company_id, id) ON DELETE CASCADE,
  FOREIGN KEY (company_id, time_entry_id) REFERENCES time_entries (company_id, id)
);
CREATE INDEX invoice_row_entries_row ON invoice_row_entries (company_id, invoice_row_id);
CREATE INDEX invoice_row_entries_invoice ON invoice_row_entries (company_id, invoice_id);

-- A contract row's fixed fee for one period. No key to contract_rows: a row deleted later keeps its billed history.
CREATE TABLE invoice_row_fees (
  company_id uuid NOT NULL,
  contract_row_id integer NOT NULL,
  period_from date NOT NULL,
  period_until date NOT NULL,
  invoice_row_id integer NOT NULL,
  invoice_id integer NOT NULL,
  PRIMARY KEY (company_id, contract_row_id, period_from),
  FOREIGN KEY (company_id, invoice_row_id) REFERENCES invoice_rows (company_id, id) ON DELETE CASCADE
);
CREATE INDEX invoice_row_fees_row ON invoice_row_fees (company_id, invoice_row_id);
CREATE INDEX invoice_row_fees_invoice ON invoice_row_fees (company_id, invoice_id);


-- The engine and the missed-billing report read closed entries by start across all tasks: an index-only range
-- scan instead of a probe per task.
CREATE INDEX time_entries_closed_start ON time_entries (company_id, start)
  INCLUDE (task_id, person_id, "end", duration, billable) WHERE deleted_at IS NULL AND "end" IS NOT NULL;
