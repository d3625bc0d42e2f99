-- The delivery workers' wake-up notice fired after every insert statement on webhook_deliveries, also one that
-- queued nothing, and the fan-out runs one such statement per recorded event: every write that recorded an event
-- sent a NOTIFY. PostgreSQL serializes the commits of notifying transactions (one lock held through the WAL
-- flush), so every write of every company queued behind every other's disk flush. Only a statement that queued a
-- delivery notifies now.
CREATE OR REPLACE FUNCTION webhook_wake() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM queued) THEN
    PERFORM pg_notify('webhook_deliveries', '');
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER webhook_deliveries_wake ON webhook_deliveries;
CREATE TRIGGER webhook_deliveries_wake AFTER INSERT ON webhook_deliveries REFERENCING NEW TABLE AS queued
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_wake();
