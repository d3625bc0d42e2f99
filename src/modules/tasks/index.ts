import { defineModule } from '../../platform/modules.ts';
import { taskVisible } from './tasks.visibility.ts';
import taskRoutes from './tasks.routes.ts';
import { BULK_JOB_TYPE, runBulkJob } from './tasks.bulk.ts';
import { extendOccurrenceHorizons } from './tasks.horizon.ts';
import { SAMPLE_STAMP as STAMP } from '../../platform/events.ts';

// For reclaims: the task entries move to, locked.
export { lockWorkTask } from './tasks.work.ts';

const HOUR = 60 * 60 * 1000;

export default defineModule({
  name: 'tasks',
  tables: ['task_assignees', 'task_comments', 'tasks'],
  visibility: { tasks: taskVisible },
  entity: 'task',
  routes: taskRoutes,
  events: { task: ['created', 'updated', 'deleted'] },
  jobs: { [BULK_JOB_TYPE]: runBulkJob },
  // Recurring series stay materialised to their horizon as time moves on.
  periodic: [{ name: 'task-horizon', everyMs: HOUR, run: (db, now) => extendOccurrenceHorizons(db, now) }],
  samples: {
    task: {
      id: 900,
      client_id: 101,
      project_id: null,
      topic_id: null,
      project_status_from: null,
      title: 'Prepare the annual report',
      description: '',
      status: 'new',
      type: 'task',
      is_important: false,
      is_extra: false,
      is_recurring: 0,
      date: null,
      due_date: '2026-02-01T00:00:00.000Z',
      finished_at: null,
      has_due_date: 1,
      estimation: 3600,
      timezone: 'UTC',
      assignees: [7],
      workflow_role_ids: [],
      custom_fields: null,
      created_at: STAMP,
      updated_at: STAMP,
    },
  },
});

// What task automations apply to a task, with the same rules, events and checks as the API's writes.
export { createTask, getTask, replaceChecklist, updateTask } from './tasks.service.ts';
export { CHECKLIST_MAX_ITEMS, OPEN_STATUSES, TASK_STATUSES, TASK_TYPES } from './tasks.schemas.ts';
// The one definition of what a task record derives (tracked time, assignees), for every reader of task records.
export { TASK_PLAIN_COLUMNS, taskAssigneeIds, taskTrackedSeconds } from './tasks.derived.ts';
export type { TaskRecord, TaskUpdateBody } from './tasks.schemas.ts';
// Live copies of a source task, written set-based for the workflow engines (their events are theirs to fire).
export {
  createCopies,
  deleteSourceTasks,
  deleteUntouched,
  dropCopiesOfDeleted,
  insertSourceTask,
  refreshCopies,
  updateSourceTask,
} from './tasks.copies.ts';
export type { CopyPairs, TaskCopy } from './tasks.copies.ts';
// A source of GET /search, the base of the client workflow's task list.
export { clientWorkRows, taskSearchHits } from './tasks.sources.ts';
// For task relations and workflow roles: a task's liveness as a condition of their statements, and who still uses a role.
export { countOpenTasksWithRole, liveTaskSql } from './tasks.facts.ts';
// For the workflow engines: the lean records their task events carry, and their source (master) rows to join.
export { leanTaskRows } from './tasks.facts.ts';
export { sourceTaskRows } from './tasks.copies.ts';
// For task automations: the live tasks' statuses (seeding their state table) and the tasks a due-date rule acts on.
export { dueOpenTasks, liveTaskStatusesSql, type DueTask } from './tasks.facts.ts';
