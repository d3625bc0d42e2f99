-- Jobs that retry later (an invoice sent by mail whose SMTP server refused it): how many times a job has
-- been started, and the earliest time a queued job may be claimed again (null: at once).
ALTER TABLE jobs ADD COLUMN attempts integer NOT NULL DEFAULT 0, ADD COLUMN run_after timestamptz;
