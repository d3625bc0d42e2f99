-- The unbilled-work rollup (docs/decisions/0070): billed seconds and entry counts of unbilled closed entries per
-- company, hourly contract row, local day, task (0 on a summarized contract) and price in effect, with the terms
-- of the row's contract the missed-billing report needs and the invoice period the day falls in, so the report
-- and the KPI gap read groups instead of entries. It is derived data: the billing module rebuilds a client's
-- groups from the entries whenever the client is marked dirty, and a company's when the company is.
CREATE TABLE unbilled_work (
  company_id uuid NOT NULL REFERENCES companies (id),
  client_id integer NOT NULL,
  contract_id integer NOT NULL,
  row_id integer NOT NULL,
  day date NOT NULL,
  period_from date NOT NULL,
  period_until date NOT NULL,
  task_key integer NOT NULL,
  price numeric,
  invoice_period text NOT NULL,
  invoice_day integer NOT NULL,
  currency text NOT NULL,
  discount_rate numeric NOT NULL,
  billed_secs bigint NOT NULL,
  entries integer NOT NULL
);
-- A report reads the days of the periods its window cuts: those starting before it, and those ending after it.
CREATE INDEX unbilled_work_period_from ON unbilled_work (company_id, period_from);
CREATE INDEX unbilled_work_period_until ON unbilled_work (company_id, period_until);
CREATE INDEX unbilled_work_client ON unbilled_work (company_id, client_id);

-- The same groups summed over whole invoice periods, each with its net already rounded as the engine rounds an
-- invoice row (hours to 4 places × price × (1 − discount), to cents; null without a price): what a report reads
-- for every period its window covers whole. Rebuilt with the day groups, from them.
CREATE TABLE unbilled_work_periods (
  company_id uuid NOT NULL REFERENCES companies (id),
  client_id integer NOT NULL,
  contract_id integer NOT NULL,
  row_id integer NOT NULL,
  period_from date NOT NULL,
  period_until date NOT NULL,
  task_key integer NOT NULL,
  price numeric,
  invoice_period text NOT NULL,
  invoice_day integer NOT NULL,
  currency text NOT NULL,
  billed_secs bigint NOT NULL,
  entries integer NOT NULL,
  value numeric
);
CREATE INDEX unbilled_work_periods_from ON unbilled_work_periods (company_id, period_from);
CREATE INDEX unbilled_work_periods_client ON unbilled_work_periods (company_id, client_id);

-- Clients whose groups may no longer match their entries (client_id null: the whole company). Appended by the
-- triggers below in the transaction of the change, so no committed change can be missed; drained by the
-- catch-up under a per-company advisory lock. Append-only on purpose: an upsert would let a writer skip its mark
-- while a catch-up that cannot yet see its change deletes the old one.
CREATE TABLE unbilled_work_dirty (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id uuid NOT NULL REFERENCES companies (id),
  client_id integer
);
CREATE INDEX unbilled_work_dirty_company ON unbilled_work_dirty (company_id);

-- A company has groups once its first full build committed; without a row here every read builds them first.
CREATE TABLE unbilled_work_state (
  company_id uuid PRIMARY KEY REFERENCES companies (id),
  built_at timestamptz NOT NULL,
  caught_up_at timestamptz NOT NULL
);

-- The triggers name the clients whose groups a change can move, one statement per statement (transition
-- tables), so a bulk write or the engine's link of 5,000 entries adds a handful of marks. Time entries, their
-- billing links and tasks are on every write path and have their own static statements; the rarer contract,
-- price, product and topic changes share one function whose argument maps the changed rows to clients.
CREATE FUNCTION unbilled_work_mark_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO unbilled_work_dirty (company_id, client_id)
    SELECT DISTINCT t.company_id, t.client_id
      FROM new_rows n JOIN tasks t ON t.company_id = n.company_id AND t.id = n.task_id
     WHERE n."end" IS NOT NULL AND n.deleted_at IS NULL AND t.client_id IS NOT NULL;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO unbilled_work_dirty (company_id, client_id)
    SELECT DISTINCT t.company_id, t.client_id
      FROM old_rows o JOIN tasks t ON t.company_id = o.company_id AND t.id = o.task_id
     WHERE o."end" IS NOT NULL AND o.deleted_at IS NULL AND t.client_id IS NOT NULL;
  ELSE
    INSERT INTO unbilled_work_dirty (company_id, client_id)
    SELECT DISTINCT t.company_id, t.client_id
      FROM old_rows o JOIN new_rows n ON n.company_id = o.company_id AND n.id = o.id
     CROSS JOIN LATERAL (VALUES (o.task_id), (n.task_id)) v (task_id)
      JOIN tasks t ON t.company_id = o.company_id AND t.id = v.task_id
     WHERE (o.task_id, o.start, o."end", o.duration, o.billable, o.deleted_at)
           IS DISTINCT FROM (n.task_id, n.start, n."end", n.duration, n.billable, n.deleted_at)
       AND t.client_id IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION unbilled_work_mark_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO unbilled_work_dirty (company_id, client_id)
    SELECT DISTINCT t.company_id, t.client_id
      FROM old_rows l JOIN time_entries e ON e.company_id = l.company_id AND e.id = l.time_entry_id
      JOIN tasks t ON t.company_id = e.company_id AND t.id = e.task_id
     WHERE t.client_id IS NOT NULL;
  ELSE
    INSERT INTO unbilled_work_dirty (company_id, client_id)
    SELECT DISTINCT t.company_id, t.client_id
      FROM new_rows l JOIN time_entries e ON e.company_id = l.company_id AND e.id = l.time_entry_id
      JOIN tasks t ON t.company_id = e.company_id AND t.id = e.task_id
     WHERE t.client_id IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION unbilled_work_mark_tasks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO unbilled_work_dirty (company_id, client_id)
    SELECT DISTINCT o.company_id, o.client_id FROM old_rows o WHERE o.client_id IS NOT NULL;
  ELSE
    INSERT INTO unbilled_work_dirty (company_id, client_id)
    SELECT DISTINCT o.company_id, v.client_id
      FROM old_rows o JOIN new_rows n ON n.company_id = o.company_id AND n.id = o.id
     CROSS JOIN LATERAL (VALUES (o.client_id), (n.client_id)) v (client_id)
     WHERE (o.client_id, o.topic_id, o.deleted_at) IS DISTINCT FROM (n.client_id, n.topic_id, n.deleted_at)
       AND v.client_id IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;

-- TG_ARGV[0]: a query over the changed rows `r` answering (company_id, client_id).
CREATE FUNCTION unbilled_work_mark_clients() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text := CASE TG_OP WHEN 'INSERT' THEN 'SELECT * FROM new_rows' WHEN 'DELETE' THEN 'SELECT * FROM old_rows'
                  ELSE 'SELECT * FROM old_rows UNION ALL SELECT * FROM new_rows' END;
BEGIN
  EXECUTE format('INSERT INTO unbilled_work_dirty (company_id, client_id) SELECT DISTINCT c.company_id, c.client_id
                    FROM (%s) c WHERE c.client_id IS NOT NULL', format(TG_ARGV[0], changed));
  RETURN NULL;
END $$;

-- A company's time zone and currency decide every entry's day and every price's currency: all its clients.
CREATE FUNCTION unbilled_work_mark_company() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO unbilled_work_dirty (company_id, client_id)
  SELECT n.id, NULL FROM old_rows o JOIN new_rows n ON n.id = o.id
   WHERE (o.timezone, o.currency) IS DISTINCT FROM (n.timezone, n.currency);
  RETURN NULL;
END $$;

-- The triggers, AFTER each of INSERT, UPDATE and DELETE (a trigger with transition tables takes one event).
DO $$
DECLARE
  t record;
  op text;
BEGIN
  FOR t IN SELECT * FROM (VALUES
    ('time_entries', 'unbilled_work_mark_entries', NULL),
    ('invoice_row_entries', 'unbilled_work_mark_links', NULL),
    ('tasks', 'unbilled_work_mark_tasks', NULL),
    ('contracts', 'unbilled_work_mark_clients', 'SELECT r.company_id, r.client_id FROM (%s) r'),
    ('contract_rows', 'unbilled_work_mark_clients',
     'SELECT k.company_id, k.client_id FROM (%s) r JOIN contracts k ON k.company_id = r.company_id AND k.id = r.contract_id'),
    ('contract_row_prices', 'unbilled_work_mark_clients',
     'SELECT k.company_id, k.client_id FROM (%s) r JOIN contract_rows cr ON cr.company_id = r.company_id
        AND cr.id = r.contract_row_id JOIN contracts k ON k.company_id = cr.company_id AND k.id = cr.contract_id'),
    ('products', 'unbilled_work_mark_clients',
     'SELECT k.company_id, k.client_id FROM (%s) r JOIN contract_rows cr ON cr.company_id = r.company_id
        AND cr.product_id = r.id JOIN contracts k ON k.company_id = cr.company_id AND k.id = cr.contract_id'),
    ('product_prices', 'unbilled_work_mark_clients',
     'SELECT k.company_id, k.client_id FROM (%s) r JOIN contract_rows cr ON cr.company_id = r.company_id
        AND cr.product_id = r.product_id JOIN contracts k ON k.company_id = cr.company_id AND k.id = cr.contract_id'),
    ('topics', 'unbilled_work_mark_clients',
     'SELECT k.company_id, k.client_id FROM (%s) r JOIN tasks k ON k.company_id = r.company_id AND k.topic_id = r.id'),
    ('companies', 'unbilled_work_mark_company', NULL)
  ) AS v (tab, fn, arg) LOOP
    FOREACH op IN ARRAY ARRAY['INSERT', 'UPDATE', 'DELETE'] LOOP
      -- Inserting or removing a task or a company moves no work: their entries do, or a later update does.
      CONTINUE WHEN t.tab IN ('tasks', 'companies') AND op = 'INSERT';
      CONTINUE WHEN t.tab = 'companies' AND op = 'DELETE';
      EXECUTE format('CREATE TRIGGER unbilled_work_%s AFTER %s ON %I REFERENCING %s FOR EACH STATEMENT
                        EXECUTE FUNCTION %I(%s)', lower(op), op, t.tab,
                     CASE op WHEN 'INSERT' THEN 'NEW TABLE AS new_rows' WHEN 'DELETE' THEN 'OLD TABLE AS old_rows'
                       ELSE 'OLD TABLE AS old_rows NEW TABLE AS new_rows' END,
                     t.fn, coalesce(quote_literal(t.arg), ''));
    END LOOP;
  END LOOP;
END $$;
