import { defineModule } from '../../platform/modules.ts';
import { throughParent } from '../../platform/visibility.ts';
import { DIGITIZATION_JOB, runDigitization } from './digitizations.service.ts';
import digitizationRoutes from './digitizations.routes.ts';
import documentRoutes from './documents.routes.ts';
import folderModuleRoutes from './folders.routes.ts';

// Documents, folders, folder templates and digitizations fire no events: the spec's event catalogue has none of
// them. The drive provider is local (docs/decisions/0029-documents-folders-drive.md).
export default defineModule({
  name: 'documents',
  tables: ['client_folder_templates', 'digitizations', 'documents', 'folder_templates', 'folders'],
  // Documents and folders follow their client; digitizations their document.
  visibility: {
    documents: throughParent('clients', 'client_id'),
    folders: throughParent('clients', 'client_id'),
    digitizations: throughParent('documents', 'document_id'),
  },
  entity: 'document',
  routes: async (fastify) => {
    await folderModuleRoutes(fastify);
    await documentRoutes(fastify);
    await digitizationRoutes(fastify);
  },
  jobs: { [DIGITIZATION_JOB]: runDigitization },
});
