-- Keyset pages of the time-entry list walk (company, start, id) without sorting what follows the cursor.
CREATE INDEX time_entries_live_start ON time_entries (company_id, start, id) WHERE deleted_at IS NULL;
