import { sql, type RawBuilder } from 'kysely';
import { trackedSecondsSql } from '../time-entries/index.ts';

// What a task record derives in SQL from rows next to it. Every reader of a task record (GET /tasks, the
// events the workflow jobs fire) takes it from here, so a task's tracked time is the same wherever it shows.

/** A task's plain columns, as its record and its events carry them. */
export const TASK_PLAIN_COLUMNS = [
  'id',
  'client_id',
  'project_id',
  'topic_id',
  'project_status_from',
  'title',
  'description',
  'status',
  'type',
  'is_important',
  'is_extra',
  'is_recurring',
  'date',
  'due_date',
  'finished_at',
  'has_due_date',
  'estimation',
  'timezone',
  'workflow_role_ids',
  'checklist',
  'recurrence_rule',
  'recurrence_parent_id',
  'recurrence_date',
  'custom_fields',
  'created_at',
  'updated_at',
] as const;

/** The ids of the people assigned to the task aliased `t`, ascending. */
export function taskAssigneeIds(): RawBuilder<number[]> {
  return sql<
    number[]
  >`array(select ta.person_id from task_assignees ta where ta.company_id = t.company_id and ta.task_id = t.id order by ta.person_id)`;
}

/**
 * Seconds tracked on the task aliased `t` (the time entries' own sum: running entries count up to now, never
 * below zero).
 */
export const taskTrackedSeconds = (): RawBuilder<number> => trackedSecondsSql('t');
