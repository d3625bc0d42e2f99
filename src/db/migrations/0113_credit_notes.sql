-- Credit notes (decision 0064): an invoice of type credit_note refers to the invoice it credits. Annulling a
-- finalized invoice issues one in the same transaction, in its own gapless number range; the engine's links
-- are released by it. Invoices made before this migration are type 'invoice' and credit nothing.
ALTER TABLE invoices
  ADD COLUMN type text NOT NULL DEFAULT 'invoice' CHECK (type IN ('invoice', 'credit_note')),
  ADD COLUMN credited_invoice_id integer,
  ADD CONSTRAINT invoices_credit_note_refers CHECK ((type = 'credit_note') = (credited_invoice_id IS NOT NULL)),
  ADD CONSTRAINT invoices_credited_invoice FOREIGN KEY (company_id, credited_invoice_id) REFERENCES invoices (company_id, id);
CREATE INDEX invoices_credited ON invoices (company_id, credited_invoice_id) WHERE credited_invoice_id IS NOT NULL;
