import { fatal, type AllowanceCharge, type EInvoice, type Finding } from './einvoice.model.ts';
import { num, round2, sum, zero, type Num } from './einvoice.num.ts';

/**
 * Peppol BIS Billing 3.0, the PEPPOL-EN16931-* rules our documents could break. They judge only a document that
 * claims Peppol (in BT-24 or BT-23), as the official validator does; R004 is what a half claim breaks.
 */
export const PEPPOL_CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const PROFILE = /^urn:fdc:peppol\.eu:2017:poacc:billing:(\d\d):1\.0$/;
const INVOICE_TYPES = new Set(
  '71 80 82 84 102 218 219 326 331 380 382 383 384 386 388 393 395 553 575 623 780 817 870 875 876 877'.split(' '),
);
const CREDIT_TYPES = new Set('81 83 381 396 532'.split(' '));
const DIRECT_DEBIT = new Set(['49', '59']);

const claimsPeppol = (doc: EInvoice) =>
  doc.syntax === 'ubl' && [doc.customizationId, doc.profileId].some((v) => v?.value.toLowerCase().includes('peppol'));
/** u:slack of the Peppol rules: equal within two cents. */
const near = (a: Num, b: Num) => a.minus(b).abs().lessThanOrEqualTo('0.02');

function header(doc: EInvoice, out: Finding[]) {
  const flag = (rule: string, ok: boolean, message: string, at = doc.root) => ok || out.push(fatal(rule, message, at));
  const profile = doc.profileId?.value.trim() ?? '';
  flag('PEPPOL-EN16931-R001', profile !== '', 'Business process MUST be provided.');
  if (profile)
    flag(
      'PEPPOL-EN16931-R007',
      PROFILE.test(profile),
      "Business process MUST be in the format 'urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0'.",
      doc.profileId!.at,
    );
  flag(
    'PEPPOL-EN16931-R004',
    (doc.customizationId?.value.trim() ?? '').startsWith(PEPPOL_CUSTOMIZATION),
    `Specification identifier MUST have the value '${PEPPOL_CUSTOMIZATION}'.`,
    doc.customizationId?.at,
  );
  const german = doc.seller.address?.country?.value === 'DE' && doc.buyer.address?.country?.value === 'DE';
  flag('PEPPOL-EN16931-R002', doc.notes.length <= 1 || german, 'No more than one note is allowed on document level.');
  flag(
    'PEPPOL-EN16931-R003',
    !!doc.buyerReference?.value || !!doc.orderReference?.value,
    'A buyer reference or purchase order reference MUST be provided.',
  );
  flag(
    'PEPPOL-EN16931-R005',
    !doc.taxCurrency || doc.taxCurrency.value !== doc.currency?.value,
    'VAT accounting currency code MUST be different from invoice currency code when provided.',
  );
  flag('PEPPOL-EN16931-R010', !!doc.buyer.endpoint?.id, 'Buyer electronic address MUST be provided', doc.buyer.at);
  flag('PEPPOL-EN16931-R020', !!doc.seller.endpoint?.id, 'Seller electronic address MUST be provided', doc.seller.at);
  const type = doc.typeCode?.value.trim() ?? '';
  if (PROFILE.exec(profile)?.[1] === '01' && doc.typeCode) {
    if (doc.kind === 'invoice')
      flag(
        'PEPPOL-EN16931-P0100',
        INVOICE_TYPES.has(type),
        'Invoice type code MUST be set according to the profile.',
        doc.typeCode.at,
      );
    else
      flag(
        'PEPPOL-EN16931-P0101',
        CREDIT_TYPES.has(type),
        'Credit note type code MUST be set according to the profile.',
        doc.typeCode.at,
      );
  }
  for (const at of doc.emptyElements)
    out.push(fatal('PEPPOL-EN16931-R008', 'Document MUST not contain empty elements.', at));
  for (const d of doc.dates)
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d.value) || Number.isNaN(Date.parse(d.value)))
      out.push(fatal('PEPPOL-EN16931-F001', 'A date MUST be formatted YYYY-MM-DD.', d.at));
}

function taxAndCurrency(doc: EInvoice, out: Finding[]) {
  const withBreakdown = doc.taxTotals.filter((t) => t.breakdown.length > 0);
  const without = doc.taxTotals.filter((t) => t.breakdown.length === 0);
  if (withBreakdown.length !== 1)
    out.push(fatal('PEPPOL-EN16931-R053', 'Only one tax total with tax subtotals MUST be provided.', doc.root));
  const taxCurrency = doc.taxCurrency?.value;
  if (taxCurrency ? without.length !== 1 : without.length !== 0)
    out.push(
      fatal(
        'PEPPOL-EN16931-R054',
        'Only one tax total without tax subtotals MUST be provided when tax currency code is provided.',
        doc.root,
      ),
    );
  if (taxCurrency) {
    const [a, b] = [withBreakdown[0]?.amount, without[0]?.amount].map((v) => num(v) ?? zero());
    if (a!.isNegative() !== b!.isNegative() && !a!.isZero() && !b!.isZero())
      out.push(
        fatal(
          'PEPPOL-EN16931-R055',
          'Invoice total VAT amount and Invoice total VAT amount in accounting currency MUST have the same operational sign',
          doc.root,
        ),
      );
  }
  const bt111 = new Set(without.map((t) => t.amount?.at));
  for (const c of doc.currencyIds)
    if (c.value !== doc.currency?.value && !bt111.has(c.at))
      out.push(
        fatal(
          'PEPPOL-EN16931-R051',
          'All currencyID attributes MUST have the same value as the invoice currency code (BT-5), except for the invoice total VAT amount in accounting currency (BT-111).',
          c.at,
        ),
      );
  for (const p of doc.paymentMeans)
    if (DIRECT_DEBIT.has(p.code?.value.trim() ?? '') && !p.mandate?.value)
      out.push(fatal('PEPPOL-EN16931-R061', 'Mandate reference MUST be provided for direct debit.', p.at));
}

function allowanceCharge(a: AllowanceCharge, out: Finding[]) {
  const [amount, base, percent] = [num(a.amount), num(a.base), num(a.percent)];
  if (base && percent && !near(amount ?? zero(), base.times(percent).dividedBy(100)))
    out.push(
      fatal(
        'PEPPOL-EN16931-R040',
        'Allowance/charge amount must equal base amount * percentage/100 if base amount and percentage exists',
        a.at,
      ),
    );
  if (a.percent && !a.base)
    out.push(
      fatal(
        'PEPPOL-EN16931-R041',
        'Allowance/charge base amount MUST be provided when allowance/charge percentage is provided.',
        a.at,
      ),
    );
  if (a.base && !a.percent)
    out.push(
      fatal(
        'PEPPOL-EN16931-R042',
        'Allowance/charge percentage MUST be provided when allowance/charge base amount is provided.',
        a.at,
      ),
    );
  if (!['true', 'false'].includes(a.chargeIndicator.trim()))
    out.push(fatal('PEPPOL-EN16931-R043', "Allowance/charge ChargeIndicator value MUST equal 'true' or 'false'", a.at));
}

function lines(doc: EInvoice, out: Finding[]) {
  for (const l of doc.lines) {
    [...l.allowances, ...l.charges].forEach((a) => allowanceCharge(a, out));
    const pa = l.priceAllowance;
    if (pa?.charge)
      out.push(
        fatal('PEPPOL-EN16931-R044', "Charge on price level is NOT allowed. Only value 'false' allowed.", pa.at),
      );
    if (pa?.base && !num(l.price)?.equals((num(pa.base) ?? zero()).minus(num(pa.amount) ?? 0)))
      out.push(
        fatal(
          'PEPPOL-EN16931-R046',
          'Item net price MUST equal (Gross price - Allowance amount) when gross price is provided.',
          pa.at,
        ),
      );
    const baseQuantity = l.baseQuantity ? num(l.baseQuantity) : num('1');
    if (l.baseQuantity && !baseQuantity?.greaterThan(0))
      out.push(fatal('PEPPOL-EN16931-R121', 'Base quantity MUST be a positive number above zero.', l.baseQuantity.at));
    if (l.baseQuantity && l.baseQuantityUnit && l.baseQuantityUnit.value !== l.unit?.value)
      out.push(
        fatal(
          'PEPPOL-EN16931-R130',
          'Unit code of price base quantity MUST be same as invoiced quantity.',
          l.baseQuantity.at,
        ),
      );
    const [quantity, price, net] = [num(l.quantity), num(l.price), num(l.net)];
    if (quantity && price && net && baseQuantity?.greaterThan(0)) {
      const expected = quantity
        .times(price.dividedBy(baseQuantity))
        .plus(sum(l.charges.map((c) => c.amount)))
        .minus(sum(l.allowances.map((a) => a.amount)));
      if (!near(net, round2(expected)) && !near(net, expected))
        out.push(
          fatal(
            'PEPPOL-EN16931-R120',
            'Invoice line net amount MUST equal (Invoiced quantity * (Item net price/item price base quantity) + Sum of invoice line charge amount - sum of invoice line allowance amount',
            l.at,
          ),
        );
    }
    const p = doc.period;
    if (p && l.period?.start && p.start && l.period.start.value < p.start.value)
      out.push(
        fatal('PEPPOL-EN16931-R110', 'Start date of line period MUST be within invoice period.', l.period.start.at),
      );
    if (p && l.period?.end && p.end && l.period.end.value > p.end.value)
      out.push(fatal('PEPPOL-EN16931-R111', 'End date of line period MUST be within invoice period.', l.period.end.at));
  }
}

export function peppolRules(doc: EInvoice): Finding[] {
  if (!claimsPeppol(doc)) return [];
  const out: Finding[] = [];
  header(doc, out);
  taxAndCurrency(doc, out);
  [...doc.allowances, ...doc.charges].forEach((a) => allowanceCharge(a, out));
  lines(doc, out);
  return out;
}
