import { defineModule } from '../../platform/modules.ts';
import attachmentRoutes from './attachments.routes.ts';
import { VERIFY_JOB, verifyAttachment } from './attachments.verify.ts';

export default defineModule({
  name: 'attachments',
  entity: 'attachment',
  routes: attachmentRoutes,
  jobs: { [VERIFY_JOB]: verifyAttachment },
});
