import { defineModule } from '../../platform/modules.ts';
import { calendarVisible } from './calendar.visibility.ts';
import calendarRoutes from './calendar.routes.ts';

export default defineModule({
  name: 'calendar',
  tables: ['calendar_entries', 'global_holidays'],
  visibility: { calendar_entries: calendarVisible },
  entity: 'calendar',
  routes: calendarRoutes,
});

// For the flextime balance: the days off of a window, inside its one statement.
export { daysOffSql } from './calendar.facts.ts';
