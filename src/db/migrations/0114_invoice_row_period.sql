-- Service period of an invoice row (EN 16931 BG-26, decision 0064): both days or neither, start not after end.
-- The billing engine fills it from the billed period; a credit note's rows copy it from the invoice's.
ALTER TABLE invoice_rows
  ADD COLUMN period_start date,
  ADD COLUMN period_end date,
  ADD CONSTRAINT invoice_rows_period CHECK (
    (period_start IS NULL) = (period_end IS NULL) AND (period_start IS NULL OR period_start <= period_end)
  );
