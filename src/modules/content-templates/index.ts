import type { FastifyInstance } from 'fastify';
import { defineModule } from '../../platform/modules.ts';
import clientEmailRoutes from './client-emails.routes.ts';
import contentTemplateRoutes from './content-templates.routes.ts';
import { CLIENT_EMAIL_JOB_TYPE, runClientEmailJob } from './client-emails.job.ts';

// For the invoice sender: its mail text from the company's invoice_email template, and the one mail mechanism.
export { renderCompanyTemplate, type RenderedTemplate } from './content-templates.use.ts';
export { deliverMail, recordMail, type Delivery, type OutgoingMail } from './content-templates.mail.ts';

/** Content templates (one row per locale) and what uses them: client e-mails here, invoice mails in invoice-documents. */
export default defineModule({
  name: 'content-templates',
  tables: ['client_mail_quota', 'content_template_rows', 'content_templates'],
  entity: 'content_template',
  routes: async (fastify: FastifyInstance) => {
    await contentTemplateRoutes(fastify);
    await clientEmailRoutes(fastify);
  },
  jobs: { [CLIENT_EMAIL_JOB_TYPE]: runClientEmailJob },
});
