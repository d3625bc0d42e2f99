import { defineModule } from '../../platform/modules.ts';
import { projectVisible } from './projects.visibility.ts';
import projectRoutes from './projects.routes.ts';
import { SAMPLE_STAMP as STAMP } from '../../platform/events.ts';

// One source of GET /search.
export { projectSearchHits } from './projects.search.ts';
/** Budgets: a live project and its client. */
export { liveProjectClient } from './projects.facts.ts';

export default defineModule({
  name: 'projects',
  tables: ['projects'],
  visibility: { projects: projectVisible },
  entity: 'project',
  routes: projectRoutes,
  events: { project: ['created', 'updated', 'deleted'] },
  samples: {
    project: {
      id: 30,
      name: 'Website relaunch',
      project_type_id: 2,
      client_id: 101,
      manager_id: 7,
      status: 'active',
      status_text: null,
      event_date: null,
      custom_fields: null,
      created_at: STAMP,
      updated_at: STAMP,
    },
  },
});

// For tasks: a referenced project the actor sees.
export { visibleProjectRef } from './projects.facts.ts';
// For the project-workflow apply: projects created in its one statement, and the records their events carry.
export { insertProjectsSql, nextProjectIdSql, projectEventRows } from './projects.facts.ts';
