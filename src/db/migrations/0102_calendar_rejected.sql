-- A manager's decision on a vacation or flextime entry may be a refusal (docs/decisions/0053): `rejected` joins
-- `in_review` and `approved` (the spec lists those two and says other values are not listed).
ALTER TABLE calendar_entries DROP CONSTRAINT calendar_entries_status_check;
ALTER TABLE calendar_entries ADD CONSTRAINT calendar_entries_status_check
  CHECK (status IN ('in_review', 'approved', 'rejected'));
