import { domainValidation } from './errors.ts';

/**
 * Electronic addresses (EN 16931 BT-34/BT-49): an endpoint id in an EAS scheme (the CEF Electronic Address
 * Scheme code list, ISO 6523 ICDs plus a few). The list is the one the official schematron checks (BR-CL-25,
 * ConnectingEurope/eInvoicing-EN16931 1.3.16); the schemes with a check digit or a fixed form are checked the
 * way the Peppol rules do (PEPPOL-COMMON-R040..R050), so an address we accept never fails them.
 */
export const EAS_SCHEMES = new Set(
  (
    '0002 0007 0009 0037 0060 0088 0096 0097 0106 0130 0135 0142 0147 0151 0154 0158 0170 0177 0183 0184 0188 ' +
    '0190 0191 0192 0193 0194 0195 0196 0198 0199 0200 0201 0202 0203 0204 0205 0208 0209 0210 0211 0212 0213 ' +
    '0215 0216 0217 0218 0219 0220 0221 0225 0230 0235 0240 0242 0244 0245 0246 0248 9910 9913 9914 9915 9918 ' +
    '9919 9920 9922 9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 9933 9934 9935 9936 9937 9938 9939 9940 ' +
    '9941 9942 9943 9944 9945 9946 9947 9948 9949 9950 9951 9952 9953 9957 9959 AN AQ AS AU EM'
  ).split(' '),
);

const digits = (id: string) => [...id].map(Number);

/** GS1 GLN: the last digit checks the others, weights 3 and 1 from the right. */
function gln(id: string): boolean {
  const body = digits(id.slice(0, -1)).reverse();
  const sum = body.reduce((total, d, i) => total + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === Number(id.at(-1));
}

/** Norwegian organisation number: mod 11, weights 2..7 from the right. */
function mod11(id: string): boolean {
  const body = digits(id.slice(0, -1)).reverse();
  const sum = body.reduce((total, d, i) => total + d * ((i % 6) + 2), 0);
  return Number(id) > 0 && (11 - (sum % 11)) % 11 === Number(id.at(-1));
}

/** Luhn over the first nine digits (Swedish organisation number). */
function luhn(id: string): boolean {
  const body = digits(id.slice(0, 9)).reverse();
  const sum = body.reduce((total, d, i) => total + (i % 2 === 0 ? ((d * 2) % 10) + Math.floor((d * 2) / 10) : d), 0);
  return (10 - (sum % 10)) % 10 === Number(id[9]);
}

/** Australian Business Number: weighted sum (first digit less one) divisible by 89. */
function abn(id: string): boolean {
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const values = digits(id).map((d, i) => (i === 0 ? d - 1 : d));
  return values.reduce((total, d, i) => total + d * weights[i]!, 0) % 89 === 0;
}

/** Italian Partita IVA: Luhn-like with the doubled digits mapped through 0246813579. */
function partitaIva(id: string): boolean {
  const sum = digits(id).reduce((total, d, i) => total + (i % 2 === 1 ? Number('0246813579'[d]) : d), 0);
  return sum % 10 === 0;
}

const SCHEME_FORMS: Record<string, (id: string) => boolean> = {
  '0088': (id) => /^\d{2,}$/.test(id) && gln(id),
  '0192': (id) => /^\d{9}$/.test(id) && mod11(id),
  '0184': (id) => /^(DK\d{8}|\d{8})$/.test(id),
  '0208': (id) => /^\d{10}$/.test(id) && Number(id.slice(8)) === 97 - (Number(id.slice(0, 8)) % 97),
  '0201': (id) => /^[A-Za-z0-9]{6}$/.test(id),
  '0210': (id) => /^(\d{11}|[A-Za-z]{6}\d{2}[A-Za-z]\d{2}.{3}\d[A-Za-z])$/.test(id),
  '0211': (id) => !/^IT/i.test(id) || (/^IT\d{11}$/i.test(id) && partitaIva(id.slice(2))),
  '0007': (id) => /^\d{10}$/.test(id) && luhn(id),
  '0151': (id) => /^\d{11}$/.test(id) && abn(id),
};

// The basic form of any endpoint id: 1-100 visible ASCII characters, no spaces (Peppol participant ids).
const BASIC_FORM = /^[\x21-\x7e]{1,100}$/;

export interface Endpoint {
  id: string;
  scheme: string;
}

/**
 * The endpoint as stored (trimmed, the scheme in capitals), or null for "none"; 400 VALIDATION_ERROR naming
 * the field when the scheme is not in the EAS list, the id is not of its scheme's form, or only one of the
 * pair is sent (they are set and cleared together).
 */
export function checkedEndpoint(
  fields: { id: string; scheme: string },
  id: string | null | undefined,
  scheme: string | null | undefined,
): Endpoint | null | undefined {
  if (id === undefined && scheme === undefined) return undefined;
  const [cleanId, cleanScheme] = [(id ?? '').trim(), (scheme ?? '').trim().toUpperCase()];
  if (cleanId === '' && cleanScheme === '') return null;
  if (cleanScheme === '') throw invalid(fields.scheme, `${fields.scheme} is required with ${fields.id}`);
  if (cleanId === '') throw invalid(fields.id, `${fields.id} is required with ${fields.scheme}`);
  if (!EAS_SCHEMES.has(cleanScheme))
    throw invalid(fields.scheme, `${fields.scheme} must be a code of the EAS code list (e.g. 0088, 0192, 0208, 9930)`);
  const form = SCHEME_FORMS[cleanScheme];
  if (!BASIC_FORM.test(cleanId) || (form && !form(cleanId)))
    throw invalid(fields.id, `${fields.id} is not a valid identifier of scheme ${cleanScheme}`);
  return { id: cleanId, scheme: cleanScheme };
}

const invalid = (field: string, message: string) => domainValidation('INVALID_ENDPOINT', message, { field });
