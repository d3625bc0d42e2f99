-- The seller's electronic address (EN 16931 BT-34; issue 27 item 2, decision 0063): an endpoint id in an EAS
-- scheme. Both or neither: a Peppol invoice needs the pair, and the API sets and clears them together.
ALTER TABLE invoice_sellers
  ADD COLUMN endpoint_id text,
  ADD COLUMN endpoint_scheme text,
  -- The seller's telephone for its invoices' contact (BT-42; XRechnung requires one, BR-DE-6).
  ADD COLUMN phone text,
  -- City and postcode apart from the free-text address (BT-37, BT-38; XRechnung requires them, BR-DE-3/4).
  ADD COLUMN address_city text,
  ADD COLUMN address_zip text,
  ADD CONSTRAINT invoice_sellers_endpoint_pair CHECK ((endpoint_id IS NULL) = (endpoint_scheme IS NULL));
