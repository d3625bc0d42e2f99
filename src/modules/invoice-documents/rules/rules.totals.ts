import { fatal, type At, type EInvoice, type Finding } from './einvoice.model.ts';
import { COUNTRIES } from './einvoice.codelists.ts';
import { num, round2, roundInt, sum, zero, type Num } from './einvoice.num.ts';

/**
 * EN 16931 BR-CO-*: the totals add up (BR-CO-10..17) and the conditions between terms hold. Sums are compared
 * after rounding to two places, as the rules do; BR-CO-17 allows the rules' own tolerance of one unit.
 */
const eq = (value: At | undefined, expected: Num) =>
  value === undefined || num(value)?.equals(round2(expected)) !== false;

type Totals = NonNullable<EInvoice['totals']>;
type Check = [rule: string, ok: boolean, message: string, at: At | undefined];

/** BR-CO-10..13: lines, allowances and charges up to the total without VAT. */
function netSums(doc: EInvoice, t: Totals): Check[] {
  const allowances = sum(doc.allowances.map((a) => a.amount));
  const charges = sum(doc.charges.map((c) => c.amount));
  const exclusive = (num(t.lineNet) ?? zero()).minus(num(t.allowances) ?? 0).plus(num(t.charges) ?? 0);
  return [
    [
      'BR-CO-10',
      eq(t.lineNet, sum(doc.lines.map((l) => l.net))),
      'Sum of Invoice line net amount (BT-106) = Σ Invoice line net amount (BT-131).',
      t.lineNet,
    ],
    [
      'BR-CO-11',
      t.allowances ? eq(t.allowances, allowances) : doc.allowances.length === 0,
      'Sum of allowances on document level (BT-107) = Σ Document level allowance amount (BT-92).',
      t.allowances,
    ],
    [
      'BR-CO-12',
      t.charges ? eq(t.charges, charges) : doc.charges.length === 0,
      'Sum of charges on document level (BT-108) = Σ Document level charge amount (BT-99).',
      t.charges,
    ],
    [
      'BR-CO-13',
      eq(t.taxExclusive, exclusive),
      'Invoice total amount without VAT (BT-109) = Σ Invoice line net amount (BT-131) - Sum of allowances on document level (BT-107) + Sum of charges on document level (BT-108).',
      t.taxExclusive,
    ],
  ];
}

/** BR-CO-15, 16, 25: the total with VAT, the amount due, and when it is due. */
function grossSums(doc: EInvoice, t: Totals): Check[] {
  const docTax = doc.taxTotals.filter((x) => x.currency === doc.currency?.value);
  const inclusive = (num(t.taxExclusive) ?? zero()).plus(num(docTax[0]?.amount) ?? 0);
  const payable = (num(t.taxInclusive) ?? zero()).minus(num(t.paid) ?? 0).plus(num(t.rounding) ?? 0);
  const due = num(t.payable);
  const dueOk = !due?.isPositive() || due.isZero() || !!doc.dueDate?.value || !!doc.paymentTerms?.value;
  return [
    [
      'BR-CO-15',
      docTax.length === 1 && eq(t.taxInclusive, inclusive),
      'Invoice total amount with VAT (BT-112) = Invoice total amount without VAT (BT-109) + Invoice total VAT amount (BT-110).',
      t.taxInclusive,
    ],
    [
      'BR-CO-16',
      eq(t.payable, payable),
      'Amount due for payment (BT-115) = Invoice total amount with VAT (BT-112) -Paid amount (BT-113) +Rounding amount (BT-114).',
      t.payable,
    ],
    [
      'BR-CO-25',
      dueOk,
      'In case the Amount due for payment (BT-115) is positive, either the Payment due date (BT-9) or the Payment terms (BT-20) shall be present.',
      t.payable,
    ],
  ];
}

function sums(doc: EInvoice): Finding[] {
  const t = doc.totals;
  if (!t) return [];
  return [...netSums(doc, t), ...grossSums(doc, t)]
    .filter(([, ok]) => !ok)
    .map(([rule, , message, at]) => fatal(rule, message, at?.at ?? t.at));
}

function breakdowns(doc: EInvoice): Finding[] {
  const out: Finding[] = [];
  for (const total of doc.taxTotals) {
    if (total.breakdown.length > 0 && !eq(total.amount, sum(total.breakdown.map((b) => b.tax))))
      out.push(
        fatal(
          'BR-CO-14',
          'Invoice total VAT amount (BT-110) = Σ VAT category tax amount (BT-117).',
          total.amount?.at ?? total.at,
        ),
      );
    for (const b of total.breakdown) {
      const [taxable, tax, rate] = [num(b.taxable), num(b.tax), num(b.category.rate)];
      if (!taxable || !tax) continue;
      const expected = rate ? round2(taxable.abs().times(rate).dividedBy(100)) : zero();
      const ok =
        rate && !roundInt(rate).isZero()
          ? tax.abs().minus(1).lessThan(expected) && tax.abs().plus(1).greaterThan(expected)
          : roundInt(tax).isZero();
      if (!ok)
        out.push(
          fatal(
            'BR-CO-17',
            'VAT category tax amount (BT-117) = VAT category taxable amount (BT-116) x (VAT category rate (BT-119) / 100), rounded to two decimals.',
            b.at,
          ),
        );
    }
  }
  if (!doc.taxTotals.some((t) => t.breakdown.length > 0))
    out.push(fatal('BR-CO-18', 'An Invoice shall at least have one VAT breakdown group (BG-23).', doc.root));
  return out;
}

/** BR-CO-09: a VAT identifier starts with the ISO 3166 country code (Greece's EL allowed). */
const vatPrefixOk = (v: At) => {
  const prefix = v.value.trim().slice(0, 2);
  return prefix === 'EL' || (COUNTRIES.has(prefix) && prefix !== '1A');
};

function conditions(doc: EInvoice): Finding[] {
  const out: Finding[] = [];
  for (const v of [doc.seller.vatId, doc.buyer.vatId, doc.taxRepresentative?.vatId])
    if (v && !vatPrefixOk(v))
      out.push(
        fatal(
          'BR-CO-09',
          'The VAT identifier (BT-31, BT-48, BT-63) shall have a prefix in accordance with ISO code ISO 3166-1 alpha-2; Greece may use EL.',
          v.at,
        ),
      );
  for (const l of doc.lines)
    if (!l.vat?.code?.value)
      out.push(
        fatal(
          'BR-CO-04',
          'Each Invoice line (BG-25) shall be categorized with an Invoiced item VAT category code (BT-151).',
          l.at,
        ),
      );
  const s = doc.seller;
  if (s.identifiers.length === 0 && !s.legalId?.value && !s.vatId?.value)
    out.push(
      fatal(
        'BR-CO-26',
        'The Seller identifier (BT-29), the Seller legal registration identifier (BT-30) or the Seller VAT identifier (BT-31) shall be present.',
        s.at,
      ),
    );
  const periods = [doc.period, ...doc.lines.map((l) => l.period)];
  periods.forEach((p, i) => {
    if (p && !p.start?.value && !p.end?.value)
      out.push(
        fatal(i === 0 ? 'BR-CO-19' : 'BR-CO-20', 'A period shall have a start date, an end date, or both.', p.at),
      );
  });
  return out;
}

export const totalsRules = (doc: EInvoice): Finding[] => [...sums(doc), ...breakdowns(doc), ...conditions(doc)];
