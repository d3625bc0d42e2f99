import { defineModule } from '../../platform/modules.ts';
import invoiceDocumentRoutes from './invoice-documents.routes.ts';
import { runSendJob, SEND_JOB } from './invoice-documents.send.ts';

/** An invoice's documents (PDF, EN 16931 UBL), its export mark and its sending by mail (the invoice_send job). */
export default defineModule({
  name: 'invoice-documents',
  tables: [],
  entity: 'invoice',
  routes: invoiceDocumentRoutes,
  jobs: { [SEND_JOB]: runSendJob },
});
// The EN 16931 and Peppol business-rule checker (decision 0062), for tests of every document shape.
export { checkEInvoice, readEInvoice, type Finding } from './rules/einvoice.check.ts';
