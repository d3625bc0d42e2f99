-- KPI snapshot computations a read caused (docs/decisions/0046): each new or stale window read with
-- GET /reports/kpi-summary (or a billing-gap BI series) computed a company-wide snapshot during the read, so a
-- read key naming a new window every request made one full computation per request. read_computed_at is set when
-- a read computed the snapshot (not the periodic refresh nor POST /reports/bi/refresh); a company may cause a
-- bounded number of them per 10 minutes, counted here.
ALTER TABLE report_snapshots ADD COLUMN read_computed_at timestamptz;
CREATE INDEX report_snapshots_read_computed ON report_snapshots (company_id, read_computed_at)
  WHERE read_computed_at IS NOT NULL;
