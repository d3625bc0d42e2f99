import sanitizeHtml from 'sanitize-html';
import { domainValidation } from '../../platform/errors.ts';
import { safeHtml } from '../../platform/html.ts';

export const TEMPLATE_TYPES = ['invoice_email', 'client_email'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];
export const CHANNELS = ['email'] as const;
export type Channel = (typeof CHANNELS)[number];
export const FORMATS = ['text', 'html'] as const;
export type TemplateFormat = (typeof FORMATS)[number];

const COMMON = ['company.name', 'client.name'] as const;

/**
 * The placeholders each type of template may use, written `{{client.name}}`. A template naming another
 * is refused on write (400 naming it), so a typo never reaches a customer as literal braces.
 */
export const PLACEHOLDERS: Record<TemplateType, readonly string[]> = {
  invoice_email: [
    ...COMMON,
    'seller.name',
    'invoice.number',
    'invoice.invoice_date',
    'invoice.due_date',
    'invoice.total',
    'invoice.due_amount',
    'invoice.currency',
    'invoice.reference_number',
  ],
  client_email: [...COMMON, 'contact.name', 'contact.email'],
};

export type PlaceholderValues = Partial<Record<string, string | null | undefined>>;

/**
 * `{{ name }}`: the name is trimmed in code, not by `\s*` around a lazy run of the same characters (three adjacent
 * quantifiers over spaces backtracked cubically: "{{" and 2,000 spaces took 5 s), and is at most 200 characters,
 * so a scan does bounded work per "{{" (decision 0046). Anything longer is text, not a placeholder.
 */
const PLACEHOLDER = /\{\{([^{}]{0,200})\}\}/g;

/** 400 VALIDATION_ERROR (reason UNKNOWN_PLACEHOLDER) naming the first placeholder the type does not offer. */
export function assertPlaceholders(type: TemplateType, field: string, text: string): void {
  const allowed = PLACEHOLDERS[type];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1]!.trim();
    if (!allowed.includes(name))
      throw domainValidation('UNKNOWN_PLACEHOLDER', `${field}: unknown placeholder {{${name}}} for ${type} templates`, {
        field,
        placeholder: name,
        allowed,
      });
  }
}

/** Locales as stored and matched: BCP 47 language[-script][-region], e.g. en, fi, en-GB, sr-Latn-RS. */
export const LOCALE_PATTERN = '^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?$';
const LOCALE = new RegExp(LOCALE_PATTERN);

/** The canonical case (en-GB, sr-Latn-RS), so `EN-gb` and `en-GB` are the same row. */
export function normalizeLocale(locale: string): string {
  return locale
    .split('-')
    .map((part, i) =>
      i === 0
        ? part.toLowerCase()
        : part.length === 4
          ? part[0]!.toUpperCase() + part.slice(1).toLowerCase()
          : part.toUpperCase(),
    )
    .join('-');
}

/** A recipient's locale as the data has it (free text from older records): canonical, or undefined when unusable. */
export const localeOrUndefined = (value: string | null | undefined): string | undefined =>
  value && LOCALE.test(value.trim().replace('_', '-')) ? normalizeLocale(value.trim().replace('_', '-')) : undefined;

/**
 * The row for a recipient: the exact locale, else the same language (en-GB finds en, en finds en-US),
 * else the template's default locale (and its language). Undefined when none fits.
 */
export function pickRow<R extends { locale: string }>(
  rows: readonly R[],
  wanted: string | undefined,
  fallback: string,
) {
  const language = (locale: string) => locale.split('-')[0];
  for (const locale of [wanted, fallback]) {
    if (!locale) continue;
    const exact = rows.find((r) => r.locale === locale);
    if (exact) return exact;
    const same = rows.find((r) => language(r.locale) === language(locale));
    if (same) return same;
  }
  return undefined;
}

export const htmlToText = (html: string): string =>
  sanitizeHtml(html.replace(/<br\s*\/?>|<\/(p|div|li|h[1-3]|tr)>/gi, '\n'), { allowedTags: [], allowedAttributes: {} })
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\n{3,}/g, '\n\n')
    .trim();

export const escapeHtml = (value: string): string =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

function fill(text: string, values: PlaceholderValues, escape: (v: string) => string): string {
  return text.replace(PLACEHOLDER, (_all, name: string) => escape(values[name.trim()] ?? ''));
}

export interface RenderedMail {
  subject: string;
  text: string;
  /** Present for HTML templates: the body with every value HTML-escaped, then through the one HTML policy. */
  html?: string;
}

/**
 * Fills a row: the subject is one plain line; values in an HTML body are escaped, so data never becomes markup,
 * and the filled body goes through the HTML policy, so a value inside an attribute (`href="{{client.name}}"`
 * filled with `javascript:...`) never becomes a dangerous URL.
 */
export function renderRow(
  format: TemplateFormat,
  row: { subject: string; body: string },
  values: PlaceholderValues,
): RenderedMail {
  const subject = fill(row.subject, values, (v) => v)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  if (format === 'text') return { subject, text: fill(row.body, values, (v) => v) };
  const html = safeHtml(fill(row.body, values, escapeHtml));
  return { subject, text: htmlToText(html), html };
}
