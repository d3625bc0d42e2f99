import { fatal, type At, type EInvoice, type Finding } from './einvoice.model.ts';
import {
  COUNTRIES,
  CREDIT_NOTE_TYPES,
  CURRENCIES,
  EAS,
  INVOICE_TYPES,
  PAYMENT_MEANS,
  UNITS,
  VATEX,
  VAT_CATEGORIES,
} from './einvoice.codelists.ts';
import { places } from './einvoice.num.ts';

/** EN 16931 BR-CL-* (codes from their lists), BR-DEC-* and UBL-DT-01 (amounts with at most two decimals). */
function codeList(
  out: Finding[],
  rule: string,
  list: ReadonlySet<string>,
  message: string,
  values: (At | undefined)[],
) {
  for (const v of values) if (v && !list.has(v.value.trim())) out.push(fatal(rule, `${message} ('${v.value}')`, v.at));
}

function codes(doc: EInvoice): Finding[] {
  const out: Finding[] = [];
  const types = new Set([...INVOICE_TYPES, ...CREDIT_NOTE_TYPES]);
  codeList(
    out,
    'BR-CL-01',
    types,
    'The document type code MUST be coded by the invoice and credit note related code lists of UNTDID 1001.',
    [doc.typeCode],
  );
  codeList(out, 'BR-CL-03', CURRENCIES, 'currencyID MUST be coded using ISO code list 4217 alpha-3', doc.currencyIds);
  codeList(out, 'BR-CL-04', CURRENCIES, 'Invoice currency code MUST be coded using ISO code list 4217 alpha-3', [
    doc.currency,
  ]);
  codeList(out, 'BR-CL-05', CURRENCIES, 'Tax currency code MUST be coded using ISO code list 4217 alpha-3', [
    doc.taxCurrency,
  ]);
  const parties = [doc.seller, doc.buyer, doc.taxRepresentative];
  const countries = [...parties.map((p) => p?.address?.country), doc.deliveryCountry];
  codeList(
    out,
    'BR-CL-14',
    COUNTRIES,
    'Country codes in an invoice MUST be coded using ISO code list 3166-1',
    countries,
  );
  codeList(
    out,
    'BR-CL-16',
    PAYMENT_MEANS,
    'Payment means in an invoice MUST be coded using UNCL4461 code list',
    doc.paymentMeans.map((p) => p.code),
  );
  const categories = [
    ...doc.taxTotals.flatMap((t) => t.breakdown.map((b) => b.category)),
    ...[...doc.allowances, ...doc.charges].map((a) => a.vat),
  ];
  codeList(
    out,
    'BR-CL-17',
    VAT_CATEGORIES,
    'Invoice tax categories MUST be coded using UNCL5305 code list',
    categories.map((c) => c?.code),
  );
  codeList(
    out,
    'BR-CL-18',
    VAT_CATEGORIES,
    'Invoice tax categories MUST be coded using UNCL5305 code list',
    doc.lines.map((l) => l.vat?.code),
  );
  const exemptions = categories.map(
    (c) => c?.exemptionCode && { ...c.exemptionCode, value: c.exemptionCode.value.toUpperCase() },
  );
  codeList(
    out,
    'BR-CL-22',
    VATEX,
    'Tax exemption reason code identifier scheme identifier MUST belong to the CEF VATEX code list',
    exemptions,
  );
  const units = doc.lines.flatMap((l) => [l.unit, l.baseQuantityUnit]);
  codeList(
    out,
    'BR-CL-23',
    UNITS,
    'Unit code MUST be coded according to the UN/ECE Recommendation 20 with Rec 21 extension',
    units,
  );
  const schemes = [doc.seller, doc.buyer].map((p) =>
    p.endpoint?.scheme !== undefined ? { value: p.endpoint.scheme, at: p.endpoint.at } : undefined,
  );
  codeList(out, 'BR-CL-25', EAS, 'Endpoint identifier scheme identifier MUST belong to the CEF EAS code list', schemes);
  return out;
}

function decimals(doc: EInvoice): Finding[] {
  const checks: [string, At | undefined][] = [];
  const add = (rule: string, ...values: (At | undefined)[]) => values.forEach((v) => checks.push([rule, v]));
  doc.allowances.forEach((a) => {
    add('BR-DEC-01', a.amount);
    add('BR-DEC-02', a.base);
  });
  doc.charges.forEach((c) => {
    add('BR-DEC-05', c.amount);
    add('BR-DEC-06', c.base);
  });
  const t = doc.totals;
  if (t) {
    add('BR-DEC-09', t.lineNet);
    add('BR-DEC-10', t.allowances);
    add('BR-DEC-11', t.charges);
    add('BR-DEC-12', t.taxExclusive);
    add('BR-DEC-14', t.taxInclusive);
    add('BR-DEC-16', t.paid);
    add('BR-DEC-17', t.rounding);
    add('BR-DEC-18', t.payable);
  }
  for (const total of doc.taxTotals) {
    add(total.currency === doc.currency?.value ? 'BR-DEC-13' : 'BR-DEC-15', total.amount);
    total.breakdown.forEach((b) => {
      add('BR-DEC-19', b.taxable);
      add('BR-DEC-20', b.tax);
    });
  }
  for (const l of doc.lines) {
    add('BR-DEC-23', l.net);
    l.allowances.forEach((a) => {
      add('BR-DEC-24', a.amount);
      add('BR-DEC-25', a.base);
    });
    l.charges.forEach((c) => {
      add('BR-DEC-27', c.amount);
      add('BR-DEC-28', c.base);
    });
  }
  const syntax = doc.amounts
    .filter((v) => places(v.value.trim()) > 2)
    .map((v) => fatal('UBL-DT-01', `Amounts shall be decimal up to two fraction digits ('${v.value}').`, v.at));
  return checks
    .filter(([, v]) => v !== undefined && places(v.value.trim()) > 2)
    .map(([rule, v]) =>
      fatal(rule, `The allowed maximum number of decimals for this amount is 2 ('${v!.value}').`, v!.at),
    )
    .concat(syntax);
}

export const codeRules = (doc: EInvoice): Finding[] => [...codes(doc), ...decimals(doc)];
