import { defineModule } from '../../platform/modules.ts';
import companyAppRoutes from './company-apps.routes.ts';
import { seedApps } from './company-apps.repository.ts';

export default defineModule({
  name: 'company-apps',
  tables: ['company_apps'],
  changesAuth: true,
  entity: 'company_app',
  routes: companyAppRoutes,
  // Every company gets the catalogue's rows at creation (ids in catalogue order).
  seeders: [seedApps],
});
