-- KPI snapshots (docs/decisions/0026): the figures of GET /reports/kpi-summary for one company and window, so a
-- year of a million time entries and the billing gap (the missed-billing computation) are not recomputed per read.
-- A snapshot is served while younger than 10 minutes; the periodic task `report-snapshots` recomputes the ones read
-- in the last day every 5 minutes and drops the ones nobody read for 7 days; POST /reports/bi/refresh recomputes
-- them at once. Figures are exact decimal text (numeric sums), rounded only when answered.
CREATE TABLE report_snapshots (
  company_id uuid NOT NULL REFERENCES companies (id),
  date_from date NOT NULL,
  date_to date NOT NULL,
  figures jsonb NOT NULL,
  computed_at timestamptz NOT NULL,
  read_at timestamptz NOT NULL,
  PRIMARY KEY (company_id, date_from, date_to)
);
-- What the refresh endpoint walks: the company's windows, most recently read first.
CREATE INDEX report_snapshots_read ON report_snapshots (company_id, read_at);
