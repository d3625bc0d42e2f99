import { defineModule } from '../../platform/modules.ts';
import billingSettingsRoutes from './billing-settings.routes.ts';

// What invoices and contracts read: the settings (defaults when never written) and the number formats.
export { readBillingSettings, type BillingSettingsValues } from './billing-settings.read.ts';
export { assertCurrency } from './currency.ts';
export { Currency, LocaleCode } from './billing-settings.schemas.ts';
// Invoice numbering is shared by invoices (finalization) and contracts (settings.invoice_number_format).
export { DEFAULT_NUMBER_FORMAT, formatInvoiceNumber, numberFormatProblem, numberScope } from './invoice-number.ts';

export default defineModule({
  name: 'billing-settings',
  tables: ['billing_settings'],
  changesAuth: true,
  entity: 'billing_settings',
  routes: billingSettingsRoutes,
});
