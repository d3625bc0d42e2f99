-- Jobs are claimed from this table by a runner in any server or worker process (FOR UPDATE SKIP LOCKED).
-- A running job's heartbeat is bumped as it works; one whose heartbeat is stale lost its process and is
-- claimed again. target_ids fixes a job's selection when it first starts, so a resumed job carries on at
-- processed_count over the same records instead of selecting anew.
ALTER TABLE jobs ADD COLUMN heartbeat_at timestamptz, ADD COLUMN target_ids integer[];
CREATE INDEX jobs_pending ON jobs (created_at, id) WHERE status IN ('queued', 'running');
