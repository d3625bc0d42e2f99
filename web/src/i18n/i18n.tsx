// The message catalogue and the formats of the member's locale: t('clients.title'), fmt.date(value).
// The language follows the member's locale_code (en, de; anything else falls back to English), and dates and
// numbers use the full locale (en-GB, de-AT...), so a member sees their own conventions.
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { I18nProvider } from 'react-aria-components';
import { de } from './de.ts';
import { en, type Messages } from './en.ts';

const CATALOGUES: Record<string, Messages> = { en, de };
export const LANGUAGES = Object.keys(CATALOGUES);

type Join<K, P> = K extends string ? (P extends string ? `${K}.${P}` : never) : never;
type Paths<T> = { [K in keyof T]: T[K] extends string ? K & string : Join<K, Paths<T[K]>> }[keyof T];
export type MessageKey = Paths<Messages>;

export interface I18n {
  locale: string;
  language: string;
  t(key: MessageKey, values?: Record<string, string | number>): string;
  date(value: string | Date | null | undefined): string;
  dateTime(value: string | Date | null | undefined): string;
  number(value: number | null | undefined): string;
}

/** A locale code as members store it (`et`, `en-GB`, `de_AT`) as a BCP 47 tag the browser accepts. */
export function normalizeLocale(code: string | null | undefined): string {
  const tag = (code ?? '').trim().replace('_', '-');
  try {
    return tag ? Intl.getCanonicalLocales(tag)[0]! : navigatorLocale();
  } catch {
    return navigatorLocale();
  }
}

function navigatorLocale(): string {
  return typeof navigator !== 'undefined' && navigator.language ? navigator.language : 'en';
}

function lookup(messages: Messages, key: string): string | undefined {
  let node: unknown = messages;
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  return typeof node === 'string' ? node : undefined;
}

export function createI18n(localeCode: string | null | undefined): I18n {
  const locale = normalizeLocale(localeCode);
  const language = locale.split('-')[0]!.toLowerCase();
  const messages = CATALOGUES[language] ?? en;
  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const dateTimeFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const numberFormat = new Intl.NumberFormat(locale);
  const toDate = (value: string | Date) => (typeof value === 'string' ? new Date(value) : value);
  return {
    locale,
    language: CATALOGUES[language] ? language : 'en',
    t(key, values) {
      const text = lookup(messages, key) ?? lookup(en, key) ?? key;
      return values ? text.replace(/\{(\w{1,40})\}/g, (all, name: string) => String(values[name] ?? all)) : text;
    },
    date: (value) => (value ? dateFormat.format(toDate(value)) : ''),
    dateTime: (value) => (value ? dateTimeFormat.format(toDate(value)) : ''),
    number: (value) => (value === null || value === undefined ? '' : numberFormat.format(value)),
  };
}

const I18nContext = createContext<I18n>(createI18n('en'));

export function LocaleProvider({
  localeCode,
  children,
}: {
  localeCode: string | null | undefined;
  children: ReactNode;
}) {
  const i18n = useMemo(() => createI18n(localeCode), [localeCode]);
  // Screen readers and the browser's own spelling and hyphenation read the page in its language.
  useEffect(() => {
    document.documentElement.lang = i18n.language;
  }, [i18n.language]);
  return (
    <I18nContext.Provider value={i18n}>
      <I18nProvider locale={i18n.locale}>{children}</I18nProvider>
    </I18nContext.Provider>
  );
}

export const useI18n = () => useContext(I18nContext);
export const useT = () => useContext(I18nContext).t;
