import { defineModule } from '../../platform/modules.ts';
import { attachmentVisible } from './attachments.visibility.ts';
import { SWEEP_EVERY_MS, sweepOrphans } from './attachments.cleanup.ts';
import attachmentRoutes from './attachments.routes.ts';
import { VERIFY_JOB, verifyAttachment } from './attachments.verify.ts';

export default defineModule({
  name: 'attachments',
  tables: ['attachments'],
  visibility: { attachments: attachmentVisible },
  entity: 'attachment',
  routes: attachmentRoutes,
  jobs: { [VERIFY_JOB]: verifyAttachment },
  // Blobs no record names (an upload whose record never committed, attachments deleted long ago).
  periodic: [{ name: 'attachment-orphans', everyMs: SWEEP_EVERY_MS, run: sweepOrphans }],
});
