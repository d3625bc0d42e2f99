-- The orphan sweep (attachments module, periodic work) asks, for a page of stored blobs, which keys a live or
-- recently deleted attachment still names. Blobs are content-addressed across companies (the same bytes are
-- stored once), so that question is deliberately not per company and this index does not start with company_id.
CREATE INDEX attachments_sha256 ON attachments (sha256, deleted_at);
