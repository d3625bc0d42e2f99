import { defineModule } from '../../platform/modules.ts';
import noteRoutes from './notes.routes.ts';

// Notes fire no events: the spec's event catalogue has no note entity.
export default defineModule({
  name: 'notes',
  entity: 'note',
  routes: noteRoutes,
});
