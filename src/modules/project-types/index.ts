import { defineModule } from '../../platform/modules.ts';
import projectTypeRoutes from './project-types.routes.ts';
import { insertDefaults } from './project-types.repository.ts';
import { DEFAULT_PROJECT_TYPES } from './project-types.schemas.ts';

// A project created without a name is named after its type.
export { projectTypeNameSql } from './project-types.repository.ts';

export default defineModule({
  name: 'project-types',
  tables: ['project_types'],
  entity: 'project_type',
  routes: projectTypeRoutes,
  // Run inside createCompany's transaction: a new company can create projects at once.
  seeders: [(db, companyId) => insertDefaults(db, companyId, DEFAULT_PROJECT_TYPES)],
});
