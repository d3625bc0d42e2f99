/**
 * The words and number/date formats of an invoice document, by the invoice's locale_code. Numbers are
 * formatted from their exact decimal text (never through a float), with the locale's separators.
 */
export interface Labels {
  invoice: string;
  invoiceNumber: string;
  invoiceDate: string;
  dueDate: string;
  referenceNumber: string;
  period: string;
  seller: string;
  buyer: string;
  regCode: string;
  vatCode: string;
  contact: string;
  bank: string;
  iban: string;
  description: string;
  quantity: string;
  unit: string;
  unitPrice: string;
  discount: string;
  vat: string;
  net: string;
  taxBreakdown: string;
  taxable: string;
  taxAmount: string;
  noTax: string;
  totalNet: string;
  totalTax: string;
  total: string;
  paid: string;
  toPay: string;
  currency: string;
  comments: string;
  page: string;
  creditNote: string;
  credits: string;
}

export interface Locale {
  code: string;
  labels: Labels;
  group: string;
  decimal: string;
  /** ISO yyyy-mm-dd → the locale's date. */
  date: (iso: string) => string;
}

const NBSP = '\u00a0';
const dotted = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
const finnish = (iso: string) => `${Number(iso.slice(8, 10))}.${Number(iso.slice(5, 7))}.${iso.slice(0, 4)}`;
const isoDate = (iso: string) => iso.slice(0, 10);

const en: Labels = {
  invoice: 'Invoice',
  invoiceNumber: 'Invoice no.',
  invoiceDate: 'Invoice date',
  dueDate: 'Due date',
  referenceNumber: 'Reference number',
  period: 'Period',
  seller: 'Seller',
  buyer: 'Bill to',
  regCode: 'Reg. code',
  vatCode: 'VAT no.',
  contact: 'Contact',
  bank: 'Bank',
  iban: 'IBAN',
  description: 'Description',
  quantity: 'Qty',
  unit: 'Unit',
  unitPrice: 'Unit price',
  discount: 'Disc. %',
  vat: 'VAT',
  net: 'Net',
  taxBreakdown: 'VAT breakdown',
  taxable: 'Taxable amount',
  taxAmount: 'VAT amount',
  noTax: 'No VAT',
  totalNet: 'Total without VAT',
  totalTax: 'VAT total',
  total: 'Total',
  paid: 'Paid',
  toPay: 'Amount due',
  currency: 'Currency',
  comments: 'Comments',
  page: 'Page',
  creditNote: 'Credit note',
  credits: 'Credits invoice',
};

const et: Labels = {
  invoice: 'Arve',
  invoiceNumber: 'Arve nr',
  invoiceDate: 'Arve kuupäev',
  dueDate: 'Maksetähtaeg',
  referenceNumber: 'Viitenumber',
  period: 'Periood',
  seller: 'Müüja',
  buyer: 'Maksja',
  regCode: 'Registrikood',
  vatCode: 'KMKR nr',
  contact: 'Kontakt',
  bank: 'Pank',
  iban: 'IBAN',
  description: 'Kirjeldus',
  quantity: 'Kogus',
  unit: 'Ühik',
  unitPrice: 'Ühiku hind',
  discount: 'Allah. %',
  vat: 'KM',
  net: 'Summa',
  taxBreakdown: 'Käibemaks määrade kaupa',
  taxable: 'Maksustatav summa',
  taxAmount: 'Käibemaks',
  noTax: 'Käibemaksuta',
  totalNet: 'Summa käibemaksuta',
  totalTax: 'Käibemaks kokku',
  total: 'Kokku',
  paid: 'Tasutud',
  toPay: 'Tasuda',
  currency: 'Valuuta',
  comments: 'Märkused',
  page: 'Lk',
  creditNote: 'Kreeditarve',
  credits: 'Krediteerib arvet',
};

const de: Labels = {
  invoice: 'Rechnung',
  invoiceNumber: 'Rechnungsnr.',
  invoiceDate: 'Rechnungsdatum',
  dueDate: 'Fällig am',
  referenceNumber: 'Referenznummer',
  period: 'Zeitraum',
  seller: 'Verkäufer',
  buyer: 'Rechnungsempfänger',
  regCode: 'Handelsreg.-Nr.',
  vatCode: 'USt-IdNr.',
  contact: 'Kontakt',
  bank: 'Bank',
  iban: 'IBAN',
  description: 'Beschreibung',
  quantity: 'Menge',
  unit: 'Einheit',
  unitPrice: 'Einzelpreis',
  discount: 'Rabatt %',
  vat: 'USt.',
  net: 'Netto',
  taxBreakdown: 'Umsatzsteuer nach Sätzen',
  taxable: 'Nettobetrag',
  taxAmount: 'Steuer',
  noTax: 'Ohne USt.',
  totalNet: 'Summe netto',
  totalTax: 'Umsatzsteuer gesamt',
  total: 'Gesamtbetrag',
  paid: 'Bezahlt',
  toPay: 'Zu zahlen',
  currency: 'Währung',
  comments: 'Bemerkungen',
  page: 'Seite',
  creditNote: 'Gutschrift',
  credits: 'Zu Rechnung',
};

const fi: Labels = {
  invoice: 'Lasku',
  invoiceNumber: 'Laskun nro',
  invoiceDate: 'Laskun päivämäärä',
  dueDate: 'Eräpäivä',
  referenceNumber: 'Viitenumero',
  period: 'Jakso',
  seller: 'Myyjä',
  buyer: 'Laskutettava',
  regCode: 'Y-tunnus',
  vatCode: 'ALV-nro',
  contact: 'Yhteyshenkilö',
  bank: 'Pankki',
  iban: 'IBAN',
  description: 'Kuvaus',
  quantity: 'Määrä',
  unit: 'Yksikkö',
  unitPrice: 'À-hinta',
  discount: 'Ale %',
  vat: 'ALV',
  net: 'Veroton',
  taxBreakdown: 'ALV-erittely',
  taxable: 'Veroton summa',
  taxAmount: 'ALV:n määrä',
  noTax: 'Ei ALV:ta',
  totalNet: 'Veroton yhteensä',
  totalTax: 'ALV yhteensä',
  total: 'Yhteensä',
  paid: 'Maksettu',
  toPay: 'Maksettavaa',
  currency: 'Valuutta',
  comments: 'Lisätiedot',
  page: 'Sivu',
  creditNote: 'Hyvityslasku',
  credits: 'Hyvittää laskun',
};

const sv: Labels = {
  ...en,
  invoice: 'Faktura',
  invoiceNumber: 'Fakturanr',
  invoiceDate: 'Fakturadatum',
  dueDate: 'Förfallodatum',
  referenceNumber: 'Referensnummer',
  period: 'Period',
  seller: 'Säljare',
  buyer: 'Fakturamottagare',
  regCode: 'Org.nr',
  vatCode: 'Momsreg.nr',
  contact: 'Kontakt',
  description: 'Beskrivning',
  quantity: 'Antal',
  unit: 'Enhet',
  unitPrice: 'À-pris',
  discount: 'Rabatt %',
  vat: 'Moms',
  net: 'Netto',
  taxBreakdown: 'Moms per sats',
  taxable: 'Underlag',
  taxAmount: 'Moms',
  noTax: 'Utan moms',
  totalNet: 'Summa exkl. moms',
  totalTax: 'Moms totalt',
  total: 'Att betala totalt',
  paid: 'Betalt',
  toPay: 'Att betala',
  currency: 'Valuta',
  comments: 'Kommentarer',
  page: 'Sida',
  creditNote: 'Kreditfaktura',
  credits: 'Krediterar faktura',
};

const LOCALES: Record<string, Locale> = {
  en: { code: 'en', labels: en, group: ',', decimal: '.', date: isoDate },
  et: { code: 'et', labels: et, group: NBSP, decimal: ',', date: dotted },
  de: { code: 'de', labels: de, group: '.', decimal: ',', date: dotted },
  fi: { code: 'fi', labels: fi, group: NBSP, decimal: ',', date: finnish },
  sv: { code: 'sv', labels: sv, group: NBSP, decimal: ',', date: isoDate },
};

/** 'et', 'et-EE' and 'et_EE' all read as Estonian; anything unknown as English. */
export function localeOf(code: string | null | undefined): Locale {
  const language = (code ?? '').slice(0, 2).toLowerCase();
  return LOCALES[language] ?? LOCALES.en!;
}

/** Exact decimal text ("-1234.5") → the locale's text with the given places ("-1 234,50"), without floats. */
export function formatDecimal(locale: Locale, text: string, places: number): string {
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, locale.group);
  const decimals = fraction.padEnd(places, '0').slice(0, places);
  return `${negative ? '-' : ''}${grouped}${places > 0 ? locale.decimal + decimals : ''}`;
}
