import { domainValidation } from '../../platform/errors.ts';

/**
 * Field checks the schema cannot express: IBANs (src/platform/iban.ts), the logo as an https URL. Each refusal
 * is 400 VALIDATION_ERROR naming the field.
 */
export { normalizeIban } from '../../platform/iban.ts';

export function assertLogoUrl(value: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || url.protocol !== 'https:' || url.hostname === '' || url.username !== '' || url.password !== '')
    throw domainValidation('INVALID_URL', 'logo_url must be an https URL without credentials', { field: 'logo_url' });
}
