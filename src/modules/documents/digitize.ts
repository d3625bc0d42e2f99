import { Decimal } from 'decimal.js';

/**
 * What a digitization extracts from a document's text: counts, and the facts a bookkeeper looks for first
 * (dates, money amounts, e-mail addresses, invoice/reference numbers). Rule-based, so the same text always
 * gives the same result; each list keeps its first MAX_ITEMS distinct finds in text order.
 */
export const EXTRACTOR_VERSION = 'text-rules-2';
const MAX_ITEMS = 50;
/** Text read by the rules: at most what a document may carry (a longer text is counted, but read up to here). */
export const MAX_SCANNED = 100_000;

export interface Amount {
  /** Exact decimal as a string (never a float). */
  value: string;
  currency: string | null;
}

export interface Extraction {
  extractor: string;
  source: 'text_content';
  characters: number;
  words: number;
  lines: number;
  dates: string[];
  amounts: Amount[];
  emails: string[];
  references: string[];
}

/*
 * Every pattern below does bounded work at each position of the text, so a scan is linear in its length
 * (decision 0046): no two unbounded quantifiers over the same characters sit next to each other or nest, every
 * separator and digit run has a maximum, and a number or an e-mail address is only tried where its run starts
 * (a lookbehind), not from every character inside a long run.
 */
const CURRENCIES: Record<string, string> = { '€': 'EUR', $: 'USD', '£': 'GBP', EUR: 'EUR', USD: 'USD', GBP: 'GBP' };
/** Grouped ("1 234 567,50": up to 6 groups of 3) or plain (up to 15 digits), with 1-2 decimals; never mid-run. */
const NUMBER = String.raw`(?<!\d)(?:\d{1,3}(?:[ ,.']\d{3}){1,6}(?:[.,]\d{1,2})?|\d{1,15}(?:[.,]\d{1,2})?)(?!\d)`;
const CODE = String.raw`EUR|USD|GBP|€|\$|£`;
const AMOUNT = new RegExp(String.raw`(?:(${CODE})\s?(${NUMBER}))|(?:(${NUMBER})\s?(${CODE}))`, 'g');
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const DMY_DATE = /\b(\d{1,2})[./](\d{1,2})[./](\d{4})\b/g;
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}\b/g;
/** Up to 4 spaces or line breaks between a keyword, its "no."/"#", a colon and the number. */
const GAP = String.raw`\s{0,4}`;
const REFERENCE = new RegExp(
  String.raw`\b(?:invoice|inv|ref|reference|order)(?![a-z])(?:${GAP}(?:no\.?|nr\.?|number|#))?(?:${GAP}[:#])?${GAP}([A-Z0-9][A-Z0-9\-/]{2,39})`,
  'gi',
);

function distinct<T>(items: Iterable<T>, key: (item: T) => string = String): T[] {
  const seen = new Map<string, T>();
  for (const item of items) {
    if (seen.size >= MAX_ITEMS) break;
    if (!seen.has(key(item))) seen.set(key(item), item);
  }
  return [...seen.values()];
}

/** A real calendar date, as YYYY-MM-DD, or undefined. */
function isoDate(year: number, month: number, day: number): string | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.toISOString().slice(0, 10);
}

function* dates(text: string): Generator<{ at: number; date: string }> {
  for (const m of text.matchAll(ISO_DATE)) {
    const date = isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
    if (date) yield { at: m.index, date };
  }
  for (const m of text.matchAll(DMY_DATE)) {
    const date = isoDate(Number(m[3]), Number(m[2]), Number(m[1]));
    if (date) yield { at: m.index, date };
  }
}

/** "1 234,50", "1,234.50", "1234.5": the last . or , followed by 1-2 digits is the decimal mark. */
export function parseAmount(raw: string): string {
  const decimal = /[.,](\d{1,2})$/.exec(raw);
  const whole = (decimal ? raw.slice(0, decimal.index) : raw).replace(/[ ,.']/g, '');
  return new Decimal(decimal ? `${whole}.${decimal[1]}` : whole).toFixed(decimal ? 2 : 0);
}

function* amounts(text: string): Generator<Amount> {
  for (const m of text.matchAll(AMOUNT)) {
    const code = m[1] ?? m[4]!;
    yield { value: parseAmount((m[2] ?? m[3])!), currency: CURRENCIES[code] ?? null };
  }
}

/** What the rules find in a text (the first MAX_SCANNED characters of it). */
export function extract(full: string): Extraction {
  const text = full.slice(0, MAX_SCANNED);
  const trimmed = text.trim();
  return {
    extractor: EXTRACTOR_VERSION,
    source: 'text_content',
    characters: full.length,
    words: trimmed === '' ? 0 : trimmed.split(/\s+/).length,
    lines: text === '' ? 0 : text.split(/\r\n|\r|\n/).length,
    dates: distinct([...dates(text)].sort((a, b) => a.at - b.at).map((d) => d.date)),
    amounts: distinct(amounts(text), (a) => `${a.value} ${a.currency}`),
    emails: distinct([...text.matchAll(EMAIL)].map((m) => m[0].toLowerCase())),
    references: distinct([...text.matchAll(REFERENCE)].map((m) => m[1]!)),
  };
}

/** This module, for runIsolated (src/platform/isolated.ts): the rules run in a worker thread of their own. */
export const EXTRACT_MODULE = import.meta.url;
