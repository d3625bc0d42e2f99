-- The buyer's electronic address (EN 16931 BT-49; decision 0063), as on the seller (0110).
ALTER TABLE clients
  ADD COLUMN endpoint_id text,
  ADD COLUMN endpoint_scheme text,
  ADD CONSTRAINT clients_endpoint_pair CHECK ((endpoint_id IS NULL) = (endpoint_scheme IS NULL));
