-- The taxes list filters by status (GET /taxes?status=...): an index per list filter, company first.
CREATE INDEX taxes_status ON taxes (company_id, status, id);
