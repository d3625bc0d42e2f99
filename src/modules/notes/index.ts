import { defineModule } from '../../platform/modules.ts';
import { noteVisible } from './notes.visibility.ts';
import noteRoutes from './notes.routes.ts';

// For modules that log something as a note (client e-mails): the one way a note body is stored.
export { insertNote } from './notes.repository.ts';

// Notes fire no events: the spec's event catalogue has no note entity.
export default defineModule({
  name: 'notes',
  tables: ['notes'],
  visibility: { notes: noteVisible },
  entity: 'note',
  routes: noteRoutes,
});
