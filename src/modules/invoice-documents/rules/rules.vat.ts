import { fatal, type AllowanceCharge, type EInvoice, type Finding, type VatCategory } from './einvoice.model.ts';
import { num, round2, sum, type Num } from './einvoice.num.ts';

/**
 * EN 16931 BR-<category>-01..10 for the nine VAT categories, from one table: the rules of each group read the
 * same way and differ only in the identifiers they need (02-04), the rate they allow (05-07), whether a
 * breakdown is grouped by rate (08), and whether an exemption reason is required or forbidden (10).
 */
type Needs = 'seller' | 'seller+buyerAny' | 'seller+buyerVat' | 'sellerVat' | 'none';
interface Rule {
  prefix: string;
  name: string;
  single: boolean; // -01: exactly one breakdown (else at least one)
  needs: Needs; // -02..04
  rate: 'positive' | 'zero' | 'absent' | 'any'; // -05..07
  byRate: boolean; // -08 per rate, -09 computed from the rate
  reason: 'required' | 'forbidden';
}

const RULES: Record<string, Rule> = {
  S: {
    prefix: 'BR-S',
    name: 'Standard rated',
    single: false,
    needs: 'seller',
    rate: 'positive',
    byRate: true,
    reason: 'forbidden',
  },
  Z: {
    prefix: 'BR-Z',
    name: 'Zero rated',
    single: true,
    needs: 'seller',
    rate: 'zero',
    byRate: false,
    reason: 'forbidden',
  },
  E: {
    prefix: 'BR-E',
    name: 'Exempt from VAT',
    single: true,
    needs: 'seller',
    rate: 'zero',
    byRate: false,
    reason: 'required',
  },
  AE: {
    prefix: 'BR-AE',
    name: 'Reverse charge',
    single: true,
    needs: 'seller+buyerAny',
    rate: 'zero',
    byRate: false,
    reason: 'required',
  },
  K: {
    prefix: 'BR-IC',
    name: 'Intra-community supply',
    single: true,
    needs: 'seller+buyerVat',
    rate: 'zero',
    byRate: false,
    reason: 'required',
  },
  G: {
    prefix: 'BR-G',
    name: 'Export outside the EU',
    single: true,
    needs: 'sellerVat',
    rate: 'zero',
    byRate: false,
    reason: 'required',
  },
  O: {
    prefix: 'BR-O',
    name: 'Not subject to VAT',
    single: true,
    needs: 'none',
    rate: 'absent',
    byRate: false,
    reason: 'required',
  },
  L: { prefix: 'BR-AF', name: 'IGIC', single: false, needs: 'seller', rate: 'any', byRate: true, reason: 'forbidden' },
  M: { prefix: 'BR-AG', name: 'IPSI', single: false, needs: 'seller', rate: 'any', byRate: true, reason: 'forbidden' },
};

const code = (c: VatCategory | undefined) => c?.code?.value.trim();
const present = (v: { value: string } | undefined) => !!v && v.value.trim() !== '';

function identifiersOk(doc: EInvoice, needs: Needs): boolean {
  const { seller, buyer, taxRepresentative: rep } = doc;
  const repVat = present(rep?.vatId);
  const sellerAny = present(seller.vatId) || present(seller.taxRegId) || repVat;
  const sellerVat = present(seller.vatId) || repVat;
  switch (needs) {
    case 'seller':
      return sellerAny;
    case 'sellerVat':
      return sellerVat;
    case 'seller+buyerAny':
      return sellerAny && (present(buyer.vatId) || present(buyer.legalId));
    case 'seller+buyerVat':
      return sellerVat && present(buyer.vatId);
    case 'none':
      return !present(seller.vatId) && !repVat && !present(buyer.vatId);
  }
}

function rateOk(c: VatCategory, rule: Rule): boolean {
  const rate = num(c.rate);
  if (rule.rate === 'absent') return c.rate === undefined;
  if (!rate) return false;
  if (rule.rate === 'positive') return rate.greaterThan(0);
  if (rule.rate === 'zero') return rate.isZero();
  return !rate.isNegative();
}

/** Lines, allowances and charges of one category (and rate, when the category is grouped by rate). */
function basis(doc: EInvoice, cat: string, rate?: Num): Num {
  const match = (c: VatCategory | undefined) =>
    code(c) === cat && (rate === undefined || num(c?.rate)?.equals(rate) === true);
  const amounts = (list: AllowanceCharge[]) => sum(list.filter((a) => match(a.vat)).map((a) => a.amount));
  const lines = sum(doc.lines.filter((l) => match(l.vat)).map((l) => l.net));
  return lines.plus(amounts(doc.charges)).minus(amounts(doc.allowances));
}

type Flag = (n: number, ok: boolean, message: string, at: string) => void;

function flagger(rule: Rule, out: Finding[]): Flag {
  return (n, ok, message, at) => {
    if (!ok)
      out.push(fatal(`${rule.prefix}-${String(n).padStart(2, '0')}`, `${message} (VAT category "${rule.name}")`, at));
  };
}

/** -01..07: what uses the category has its breakdown, the identifiers it needs and a rate it allows. */
function uses(doc: EInvoice, cat: string, rule: Rule, flag: Flag): void {
  const lines = doc.lines.filter((l) => code(l.vat) === cat);
  const allowances = doc.allowances.filter((a) => code(a.vat) === cat);
  const charges = doc.charges.filter((c) => code(c.vat) === cat);
  const count = doc.taxTotals.flatMap((t) => t.breakdown).filter((b) => code(b.category) === cat).length;
  const used = lines.length + allowances.length + charges.length > 0;
  const breakdownOk = used ? (rule.single ? count === 1 : count > 0) : count === 0;
  flag(
    1,
    breakdownOk,
    'Lines, allowances and charges of a VAT category need its VAT breakdown, and only they',
    doc.root,
  );
  const ids = identifiersOk(doc, rule.needs);
  const groups = [lines, allowances, charges] as { vat?: VatCategory; at: string }[][];
  const what = ['invoice line (BT-152)', 'document level allowance (BT-96)', 'document level charge (BT-103)'];
  groups.forEach((list, i) => {
    if (list.length)
      flag(
        2 + i,
        ids,
        `The VAT identifiers the category needs (or must not have) do not match: ${what[i]}`,
        list[0]!.at,
      );
    for (const x of list)
      flag(5 + i, rateOk(x.vat!, rule), `The VAT rate is not what the category allows: ${what[i]}`, x.at);
  });
}

/** -08..10: each breakdown of the category adds up and carries (or not) an exemption reason. */
function breakdowns(doc: EInvoice, cat: string, rule: Rule, flag: Flag): void {
  for (const b of doc.taxTotals.flatMap((t) => t.breakdown).filter((x) => code(x.category) === cat)) {
    const rate = num(b.category.rate);
    const taxable = num(b.taxable);
    const expected = round2(basis(doc, cat, rule.byRate ? rate : undefined));
    const near = taxable && (rule.byRate ? taxable.minus(expected).abs().lessThan(1) : taxable.equals(expected));
    flag(
      8,
      !!near,
      'The VAT category taxable amount (BT-116) is not the sum of its lines, charges and allowances',
      b.at,
    );
    const tax = num(b.tax);
    const due = rule.byRate && rate && taxable ? round2(taxable.abs().times(rate).dividedBy(100)) : undefined;
    const taxOk = !!tax && (due ? tax.abs().minus(due).abs().lessThan(1) : tax.isZero());
    flag(9, taxOk, 'The VAT category tax amount (BT-117) is wrong for the category', b.at);
    const reason = present(b.category.exemptionReason) || present(b.category.exemptionCode);
    flag(
      10,
      rule.reason === 'required' ? reason : !reason,
      `A VAT exemption reason (BT-120, BT-121) is ${rule.reason} here`,
      b.at,
    );
  }
}

function category(doc: EInvoice, cat: string, rule: Rule): Finding[] {
  const out: Finding[] = [];
  const flag = flagger(rule, out);
  uses(doc, cat, rule, flag);
  breakdowns(doc, cat, rule, flag);
  return out;
}

/** BR-O-11..14: "not subject to VAT" stands alone; BR-IC-11/12: intra-community supplies name delivery. */
function special(doc: EInvoice): Finding[] {
  const out: Finding[] = [];
  const breakdowns = doc.taxTotals.flatMap((t) => t.breakdown);
  if (breakdowns.some((b) => code(b.category) === 'O')) {
    const other = (list: { vat?: VatCategory; at: string }[], rule: string, what: string) => {
      const bad = list.find((x) => code(x.vat) !== 'O');
      if (bad)
        out.push(
          fatal(
            rule,
            `An Invoice with a "Not subject to VAT" breakdown shall not contain ${what} of another category.`,
            bad.at,
          ),
        );
    };
    const others = breakdowns.find((b) => code(b.category) !== 'O');
    if (others)
      out.push(
        fatal(
          'BR-O-11',
          'An Invoice with a "Not subject to VAT" breakdown shall not contain other VAT breakdowns.',
          others.at,
        ),
      );
    other(doc.lines, 'BR-O-12', 'Invoice lines');
    other(doc.allowances, 'BR-O-13', 'document level allowances');
    other(doc.charges, 'BR-O-14', 'document level charges');
  }
  const ic = breakdowns.find((b) => code(b.category) === 'K');
  if (ic && !present(doc.deliveryDate) && !doc.period)
    out.push(
      fatal(
        'BR-IC-11',
        'Intra-community supply needs the Actual delivery date (BT-72) or the Invoicing period (BG-14).',
        ic.at,
      ),
    );
  if (ic && !present(doc.deliveryCountry))
    out.push(fatal('BR-IC-12', 'Intra-community supply needs the Deliver to country code (BT-80).', ic.at));
  return out;
}

export const vatRules = (doc: EInvoice): Finding[] => [
  ...Object.entries(RULES).flatMap(([cat, rule]) => category(doc, cat, rule)),
  ...special(doc),
];
