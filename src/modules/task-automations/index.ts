import { defineModule } from '../../platform/modules.ts';
import { taskAutomationVisible } from './task-automations.visibility.ts';
import taskAutomationRoutes from './task-automations.routes.ts';
import { processQueue, scanDueDates } from './task-automations.runner.ts';

const SECOND = 1000;

export default defineModule({
  name: 'task-automations',
  tables: ['task_automation_queue', 'task_automation_runs', 'task_automation_task_states', 'task_automations'],
  visibility: { task_automations: taskAutomationVisible },
  entity: 'task_automation',
  routes: taskAutomationRoutes,
  // Rules run from the task events of the outbox (queued by the trigger of migration 0093) and, for due
  // dates, from a scan; both are periodic work of every server and worker.
  periodic: [
    { name: 'task-automations', everyMs: 5 * SECOND, run: (db) => processQueue(db) },
    { name: 'task-automations-due', everyMs: 60 * SECOND, run: (db, now) => scanDueDates(db, now) },
  ],
});
