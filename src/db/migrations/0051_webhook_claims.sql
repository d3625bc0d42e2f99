-- Claims are leases instead of row locks held for the whole attempt: a claim marks the row with
-- a token and moves next_attempt_at to the end of the lease in a short transaction, the HTTP call
-- runs with no transaction open, and the outcome is recorded only by the holder of the token. A
-- worker that dies leaves the row to come due again when its lease ends, with the same attempt
-- number, exactly as the rolled-back lock did before.
ALTER TABLE webhook_deliveries ADD COLUMN claim_token uuid;

-- Fair claiming walks the companies with pending rows and takes each one's oldest due row.
CREATE INDEX webhook_deliveries_company_due ON webhook_deliveries (company_id, next_attempt_at, id) WHERE state = 'pending';
-- Attempts in flight per company (few rows: only those claimed right now).
CREATE INDEX webhook_deliveries_claimed ON webhook_deliveries (company_id) WHERE claim_token IS NOT NULL;
