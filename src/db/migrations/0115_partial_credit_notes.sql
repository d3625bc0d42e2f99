-- Partial credit notes (decision 0064): a credit note's row names the invoice row it credits, so what is left to
-- credit on each row is known (the cap) and budgets count the credit against the project the row billed. Full
-- credit notes issued before this migration have no such link; their invoices are annulled and credit nothing more.
ALTER TABLE invoice_rows
  ADD COLUMN credited_row_id integer,
  ADD CONSTRAINT invoice_rows_credited_row FOREIGN KEY (company_id, credited_row_id)
    REFERENCES invoice_rows (company_id, id) ON DELETE SET NULL (credited_row_id);
CREATE INDEX invoice_rows_credited ON invoice_rows (company_id, credited_row_id) WHERE credited_row_id IS NOT NULL;
