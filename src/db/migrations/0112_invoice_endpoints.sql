-- The parties' electronic addresses and the seller's telephone, city and postcode as the invoice copies them (at create and at finalization, like the other
-- seller_* and client_* fields), so the e-invoice of an issued invoice names the addresses it was issued to.
ALTER TABLE invoices
  ADD COLUMN seller_endpoint_id text,
  ADD COLUMN seller_endpoint_scheme text,
  ADD COLUMN client_endpoint_id text,
  ADD COLUMN client_endpoint_scheme text,
  ADD COLUMN seller_phone text,
  ADD COLUMN seller_city text,
  ADD COLUMN seller_zip text;
