/**
 * An e-invoice read into the business terms of EN 16931 (BT-n, BG-n), whatever its syntax: each syntax binding
 * (UBL Invoice and CreditNote today; UN/CEFACT CII slots in as another binding) fills this model, and the rules
 * read only the model. Amounts stay the strings the document wrote (BR-DEC counts their places); `at` is where
 * in the document a term was read, for the findings.
 */
export interface Finding {
  rule: string;
  flag: 'fatal' | 'warning';
  message: string;
  location: string;
}

/** A value with the place it came from. */
export interface At<T = string> {
  value: T;
  at: string;
}

export interface Party {
  at: string;
  name?: At; // BT-27, BT-44
  endpoint?: { id: string; scheme?: string; at: string }; // BT-34, BT-49
  address?: { country?: At; at: string }; // BG-5, BG-8, BG-12 (country BT-40, BT-55, BT-69)
  vatId?: At; // BT-31, BT-48
  taxRegId?: At; // BT-32
  legalId?: At; // BT-30, BT-47
  identifiers: At[]; // BT-29, BT-46 (not the SEPA creditor identifier)
}

export interface VatCategory {
  code?: At; // BT-151, BT-95, BT-102, BT-118
  rate?: At; // BT-152, BT-96, BT-103, BT-119
  exemptionReason?: At; // BT-120
  exemptionCode?: At; // BT-121
  at: string;
}

export interface AllowanceCharge {
  charge: boolean;
  chargeIndicator: string; // as written, for PEPPOL-EN16931-R043
  amount?: At; // BT-92/99/136/141
  base?: At; // BT-93/100/137/142
  percent?: At; // BT-94/101/138/143
  reason?: At;
  reasonCode?: At;
  vat?: VatCategory; // document level only
  at: string;
}

export interface Period {
  start?: At;
  end?: At;
  at: string;
}

export interface Line {
  at: string;
  id?: At; // BT-126
  quantity?: At; // BT-129
  unit?: At; // BT-130
  net?: At; // BT-131
  itemName?: At; // BT-153
  price?: At; // BT-146
  priceAllowance?: AllowanceCharge; // BT-147, gross price BT-148 as its base
  baseQuantity?: At; // BT-149
  baseQuantityUnit?: At; // BT-150
  vat?: VatCategory; // BT-151, BT-152
  allowances: AllowanceCharge[];
  charges: AllowanceCharge[];
  period?: Period; // BG-26
}

export interface VatBreakdown {
  taxable?: At; // BT-116
  tax?: At; // BT-117
  category: VatCategory; // BT-118..121
  at: string;
}

export interface TaxTotal {
  amount?: At; // BT-110, BT-111
  currency?: string;
  breakdown: VatBreakdown[];
  at: string;
}

export interface Totals {
  lineNet?: At; // BT-106
  allowances?: At; // BT-107
  charges?: At; // BT-108
  taxExclusive?: At; // BT-109
  taxInclusive?: At; // BT-112
  paid?: At; // BT-113
  rounding?: At; // BT-114
  payable?: At; // BT-115
  at: string;
}

export interface EInvoice {
  syntax: 'ubl' | 'cii';
  kind: 'invoice' | 'credit-note';
  root: string;
  customizationId?: At; // BT-24
  profileId?: At; // BT-23
  number?: At; // BT-1
  issueDate?: At; // BT-2
  typeCode?: At; // BT-3
  currency?: At; // BT-5
  taxCurrency?: At; // BT-6
  notes: At[]; // BT-22
  buyerReference?: At; // BT-10
  orderReference?: At; // BT-13
  period?: Period; // BG-14
  precedingInvoices: { id?: At; at: string }[]; // BG-3
  seller: Party; // BG-4
  buyer: Party; // BG-7
  taxRepresentative?: Party; // BG-11
  deliveryCountry?: At; // BT-80
  deliveryDate?: At; // BT-72
  dueDate?: At; // BT-9
  paymentTerms?: At; // BT-20
  paymentMeans: { code?: At; accounts: At[]; mandate?: At; at: string }[]; // BG-16
  allowances: AllowanceCharge[]; // BG-20
  charges: AllowanceCharge[]; // BG-21
  taxTotals: TaxTotal[];
  totals?: Totals; // BG-22
  lines: Line[]; // BG-25
  /** Every amount with a currency, for PEPPOL-EN16931-R051 and BR-CL-03. */
  currencyIds: At[];
  /** Elements with neither text nor children, for PEPPOL-EN16931-R008. */
  emptyElements: string[];
  /** Every amount but prices and price allowances, as written, for UBL-DT-01. */
  amounts: At[];
  /** Dates as written, for PEPPOL-EN16931-F001. */
  dates: At[];
}

/** A rule group: the model in, the findings out. */
export type RuleGroup = (doc: EInvoice) => Finding[];

export const fatal = (rule: string, message: string, location: string): Finding => ({
  rule,
  flag: 'fatal',
  message,
  location,
});
