-- Occurrences of a recurring task are rows pointing at their master. At most one live occurrence per
-- master and local day, enforced here so two concurrent rule changes cannot materialise a day twice.
ALTER TABLE tasks ADD FOREIGN KEY (company_id, recurrence_parent_id) REFERENCES tasks (company_id, id);
CREATE UNIQUE INDEX tasks_live_occurrence_day ON tasks (company_id, recurrence_parent_id, recurrence_date)
  WHERE deleted_at IS NULL AND recurrence_parent_id IS NOT NULL;
