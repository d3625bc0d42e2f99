-- The audit trail of a financial write (its path and field names) is shown only to keys with the financials tier
-- (issue 24, decision 0050). Set when the row is written; existing rows by the entities whose reads need the tier
-- and the one financial route whose entity is not financial (POST /tasks/{id}/reclaim).
ALTER TABLE activities ADD COLUMN financial boolean NOT NULL DEFAULT false;
UPDATE activities SET financial = true
 WHERE entity IN ('agreement', 'billing_settings', 'budget', 'contract', 'flextime', 'integration', 'invoice',
                  'invoice_seller', 'monitor', 'product_price', 'reclaim', 'tax')
    OR path ~ '^/api/v3/tasks/[0-9]+/reclaim$';
