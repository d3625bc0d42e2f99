/**
 * Invoice number formats: text with one `{seq}` (or `{seq:N}`, zero-padded to N digits) and optional
 * date parts `{yyyy}`, `{yy}`, `{mm}` taken from the invoice date. The counter is kept per rendered
 * prefix/suffix (the format with its date parts filled in), so `INV-{yyyy}-{seq:4}` restarts every year
 * while `{seq}` counts for ever; within one scope numbers are consecutive and gapless.
 */
const TOKEN = /\{(seq(?::(\d{1,2}))?|yyyy|yy|mm)\}/g;
export const DEFAULT_NUMBER_FORMAT = '{seq}';
export const MAX_FORMAT_LENGTH = 64;

/** Why a format is unusable, or null when it is fine. */
export function numberFormatProblem(format: string): string | null {
  if (format.length === 0 || format.length > MAX_FORMAT_LENGTH) return `must be 1-${MAX_FORMAT_LENGTH} characters`;
  const tokens = [...format.matchAll(TOKEN)];
  const seq = tokens.filter((m) => m[1]!.startsWith('seq'));
  if (seq.length !== 1) return 'must contain exactly one {seq} or {seq:N} placeholder';
  const width = seq[0]![2] === undefined ? 1 : Number(seq[0]![2]);
  if (width < 1 || width > 12) return '{seq:N} takes a width of 1-12 digits';
  if (/[{}]/.test(format.replace(TOKEN, '')))
    return 'only {seq}, {seq:N}, {yyyy}, {yy} and {mm} placeholders are known';
  if (/[\u0000-\u001f]/.test(format)) return 'must not contain control characters';
  return null;
}

function fillDate(format: string, invoiceDate: string): string {
  const [yyyy, mm] = invoiceDate.split('-') as [string, string];
  return format.replace(TOKEN, (whole, name: string) =>
    name === 'yyyy' ? yyyy : name === 'yy' ? yyyy.slice(2) : name === 'mm' ? mm : whole,
  );
}

/** The counter a number is drawn from: the format with its date parts filled in (invoiceDate is YYYY-MM-DD). */
export function numberScope(format: string, invoiceDate: string): string {
  return fillDate(format, invoiceDate);
}

/** The invoice number for sequence value `seq`. */
export function formatInvoiceNumber(format: string, invoiceDate: string, seq: number | bigint | string): string {
  return fillDate(format, invoiceDate).replace(TOKEN, (_whole, _name: string, width?: string) =>
    String(seq).padStart(width === undefined ? 1 : Number(width), '0'),
  );
}
