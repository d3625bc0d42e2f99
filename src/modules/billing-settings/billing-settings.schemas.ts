import { Type, type Static } from 'typebox';
import { Id, mapOptional, Nullable, Timestamp } from '../../platform/fields.ts';
import { MAX_FORMAT_LENGTH } from './invoice-number.ts';

export const CURRENCY_PATTERN = '^[A-Z]{3}$';
export const Currency = (description: string) =>
  Type.String({ pattern: CURRENCY_PATTERN, minLength: 3, maxLength: 3, description });
export const LocaleCode = (description: string) =>
  Type.String({ pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$', maxLength: 16, description });

const fields = {
  billing_active: Type.Boolean({ description: 'Whether billing is in use (the company feature flag "billing")' }),
  default_currency: Currency('ISO 4217 code, three capitals (the company currency)'),
  default_seller_id: Nullable(Id('Active invoice seller used when an invoice names none')),
  invoice_number_format: Type.String({
    minLength: 1,
    maxLength: MAX_FORMAT_LENGTH,
    description:
      'One {seq} or {seq:N} (zero-padded to N digits) and optional {yyyy}, {yy}, {mm} from the invoice date; ' +
      'default {seq}. The counter restarts whenever the rendered prefix/suffix changes (e.g. each year).',
  }),
  payment_term_days: Type.Integer({ minimum: 0, maximum: 365, description: 'Days from invoice date to due date; 14' }),
  default_locale_code: LocaleCode('Locale of new invoices, e.g. en or et; default en'),
};

export const BillingSettings = Type.Object(
  { ...fields, updated_at: Timestamp('Last change (UTC); the ETag') },
  { title: 'BillingSettings' },
);
export type BillingSettingsRecord = Static<typeof BillingSettings>;

export const BillingSettingsUpdate = Type.Object(mapOptional(fields), {
  additionalProperties: false,
  title: 'BillingSettingsUpdate',
});
export type BillingSettingsUpdateBody = Static<typeof BillingSettingsUpdate>;
