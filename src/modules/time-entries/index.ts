import { defineModule } from '../../platform/modules.ts';
import { timeEntryVisible } from './time-entries.visibility.ts';
import timeEntryRoutes from './time-entries.routes.ts';
import { SAMPLE_STAMP as STAMP } from '../../platform/events.ts';

/** Reclaims lock the entries they move and move them between tasks. */
export { lockEntriesToMove, moveEntries, type MovableEntry } from './time-entries.moves.ts';
// For tasks: a task's tracked time and whether any time is logged on it, inside the tasks' own statements.
export { timeLoggedSql, trackedSecondsSql } from './time-entries.facts.ts';
// For the flextime balance: a person's worked time in a window, inside its one statement.
export { closedSecondsByPersonSql } from './time-entries.facts.ts';

export default defineModule({
  name: 'time-entries',
  tables: ['time_entries'],
  visibility: { time_entries: timeEntryVisible },
  entity: 'time_entry',
  routes: timeEntryRoutes,
  events: { time_entry: ['created'] },
  samples: {
    time_entry: {
      id: 7001,
      task_id: 900,
      person_id: 7,
      start: '2026-01-15T08:00:00.000Z',
      end: '2026-01-15T09:30:00.000Z',
      duration: 5400,
      billable: 1,
      description: 'Drafting',
      created_at: STAMP,
      updated_at: STAMP,
    },
  },
});
