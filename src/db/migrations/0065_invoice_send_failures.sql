-- A send whose mail never went out shows on the invoice itself, not only on its job: the reason and when the send
-- gave up. A later send that goes out clears both.
ALTER TABLE invoices ADD COLUMN send_error text, ADD COLUMN send_failed_at timestamptz;
