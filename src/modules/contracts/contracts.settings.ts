import { Type, type Static } from 'typebox';
import { mapOptional, Nullable } from '../../platform/fields.ts';
import { domainValidation } from '../../platform/errors.ts';
import { numberFormatProblem } from '../billing-settings/index.ts';

/** Invoice recipients one contract may name. */
export const MAX_RECIPIENTS = 20;
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

const Email = (description: string) => Type.String({ format: 'email', maxLength: 255, description });

/**
 * ContractSettings: exactly the spec's keys. null means "the company's billing setting applies" (currency, number
 * format, payment term, locale); the flags default to false, recipients to none (decision 0020).
 */
const settingsFields = {
  ext_user_id: Nullable(Type.String({ maxLength: 255, description: 'Id of the responsible person elsewhere' })),
  currency: Nullable(
    Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code; null: the company default currency' }),
  ),
  description: Nullable(
    Type.String({ maxLength: 5000, description: 'Contract description (printed if is_description)' }),
  ),
  invoice_due_date_period: Nullable(
    Type.Integer({ minimum: 0, maximum: 365, description: 'Payment term in days; null: the company term' }),
  ),
  invoice_number_format: Nullable(
    Type.String({ maxLength: 64, description: 'e.g. INV-{yyyy}-{seq:4}; null: the company format' }),
  ),
  invoice_recipients: Type.Array(Email('Recipient e-mail address'), {
    maxItems: MAX_RECIPIENTS,
    uniqueItems: true,
    description: `Up to ${MAX_RECIPIENTS} e-mail addresses invoices are sent to; empty: the client's primary contact`,
  }),
  invoice_time_rounding: Type.Integer({
    minimum: 0,
    maximum: 1440,
    description: 'Billed time is rounded up to this many minutes; 0 (default): no rounding',
  }),
  is_description: Type.Boolean({ description: 'Print the description on invoices (default false)' }),
  is_reverse_charge: Type.Boolean({ description: 'Invoices are reverse-charge VAT (default false)' }),
  is_summarized: Type.Boolean({ description: 'One summarized invoice row instead of one per row (default false)' }),
  locale_code: Nullable(
    Type.String({
      pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$',
      maxLength: 16,
      description: 'Invoice language, e.g. en or et; null: the company default',
    }),
  ),
  reference_number: Nullable(Type.String({ maxLength: 64, description: 'Payment reference printed on invoices' })),
  reply_to: Nullable(Email('Reply-To address of invoice mail')),
  summarized_description: Nullable(Type.String({ maxLength: 255, description: 'Text of the summarized row' })),
};

export const ContractSettings = Type.Object(settingsFields, { title: 'ContractSettings' });
export type ContractSettingsValues = Static<typeof ContractSettings>;

/** On input every key is optional; a PATCH merges the sent keys into the stored object key by key. */
export const SettingsInput = Type.Object(mapOptional(settingsFields), {
  additionalProperties: false,
  title: 'ContractSettingsInput',
});
export type SettingsInputValues = Partial<ContractSettingsValues>;

export const SETTINGS_DEFAULTS: ContractSettingsValues = {
  ext_user_id: null,
  currency: null,
  description: null,
  invoice_due_date_period: null,
  invoice_number_format: null,
  invoice_recipients: [],
  invoice_time_rounding: 0,
  is_description: false,
  is_reverse_charge: false,
  is_summarized: false,
  locale_code: null,
  reference_number: null,
  reply_to: null,
  summarized_description: null,
};

/** The rules a schema cannot state: a real ISO 4217 code, a usable invoice number format. */
export function checkSettings(input: SettingsInputValues | undefined): void {
  if (!input) return;
  if (input.currency != null && !CURRENCIES.has(input.currency))
    throw domainValidation('INVALID_CURRENCY', `settings.currency ${input.currency} is not an ISO 4217 code`, {
      field: 'settings.currency',
    });
  const format = input.invoice_number_format;
  const problem = format == null ? null : numberFormatProblem(format);
  if (problem)
    throw domainValidation('INVALID_NUMBER_FORMAT', `settings.invoice_number_format ${problem}`, {
      field: 'settings.invoice_number_format',
    });
}

/** The complete settings object to store: defaults, then what is stored, then the sent keys. */
export function mergeSettings(stored: unknown, input: SettingsInputValues | undefined): ContractSettingsValues {
  const current = stored && typeof stored === 'object' && !Array.isArray(stored) ? stored : {};
  const known = Object.fromEntries(Object.entries(current).filter(([k]) => k in SETTINGS_DEFAULTS));
  const sent = Object.fromEntries(Object.entries(input ?? {}).filter(([, v]) => v !== undefined));
  return { ...SETTINGS_DEFAULTS, ...known, ...sent } as ContractSettingsValues;
}
