import { domainValidation } from './errors.ts';

/**
 * IBANs as invoice sellers and suppliers keep them: ISO 13616 shape and the ISO 7064 mod 97-10 checksum, each
 * refused as 400 VALIDATION_ERROR (reason INVALID_IBAN) naming the field.
 */
const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;

/** The IBAN compact in capitals (spaces are how people write them, not part of the number). */
export function normalizeIban(field: string, value: string): string {
  const compact = value.replace(/ /g, '').toUpperCase();
  if (!IBAN_SHAPE.test(compact))
    throw domainValidation(
      'INVALID_IBAN',
      `${field} is not an IBAN (country code, 2 check digits, 11-30 letters or digits)`,
      {
        field,
      },
    );
  if (ibanRemainder(compact) !== 1)
    throw domainValidation('INVALID_IBAN', `${field} fails the IBAN checksum (mod 97); check for a typing error`, {
      field,
    });
  return compact;
}

/** ISO 7064 mod 97-10 over the rearranged IBAN, letters as 10-35, computed digit by digit to stay in safe integers. */
function ibanRemainder(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}
