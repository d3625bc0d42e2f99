import { fatal, type AllowanceCharge, type At, type EInvoice, type Finding, type Party } from './einvoice.model.ts';

/**
 * EN 16931 BR-01..BR-65: what must be present and what must hold on each group of business terms. Rules on
 * elements the UBL syntax cannot carry, or that need a document outside the invoice (BR-52 attachments), are not
 * here (decision 0062).
 */
type Check = [rule: string, ok: boolean, message: string, at: string];

const has = (v: At | undefined) => v !== undefined && v.value.trim() !== '';
const collect = (checks: Check[]): Finding[] =>
  checks.filter(([, ok]) => !ok).map(([rule, , message, at]) => fatal(rule, message, at));

function header(doc: EInvoice): Check[] {
  const t = doc.totals;
  const at = doc.root;
  return [
    ['BR-01', has(doc.customizationId), 'An Invoice shall have a Specification identifier (BT-24).', at],
    ['BR-02', has(doc.number), 'An Invoice shall have an Invoice number (BT-1).', at],
    ['BR-03', has(doc.issueDate), 'An Invoice shall have an Invoice issue date (BT-2).', at],
    ['BR-04', has(doc.typeCode), 'An Invoice shall have an Invoice type code (BT-3).', at],
    ['BR-05', has(doc.currency), 'An Invoice shall have an Invoice currency code (BT-5).', at],
    ['BR-12', has(t?.lineNet), 'An Invoice shall have the Sum of Invoice line net amount (BT-106).', t?.at ?? at],
    [
      'BR-13',
      has(t?.taxExclusive),
      'An Invoice shall have the Invoice total amount without VAT (BT-109).',
      t?.at ?? at,
    ],
    ['BR-14', has(t?.taxInclusive), 'An Invoice shall have the Invoice total amount with VAT (BT-112).', t?.at ?? at],
    ['BR-15', has(t?.payable), 'An Invoice shall have the Amount due for payment (BT-115).', t?.at ?? at],
    ['BR-16', doc.lines.length > 0, 'An Invoice shall have at least one Invoice line (BG-25).', at],
    ['BR-53', !doc.taxCurrency || taxInCurrency(doc), 'A VAT accounting currency (BT-6) needs BT-111.', at],
  ];
}

const taxInCurrency = (doc: EInvoice) => doc.taxTotals.some((t) => t.currency === doc.taxCurrency?.value);

function parties(doc: EInvoice): Check[] {
  const { seller, buyer } = doc;
  const checks: Check[] = [
    ['BR-06', has(seller.name), "An Invoice shall contain the Seller's name (BT-27).", seller.at],
    ['BR-07', has(buyer.name), "An Invoice shall contain the Buyer's name (BT-44).", buyer.at],
    ['BR-08', seller.address !== undefined, 'An Invoice shall contain the Seller postal address (BG-5).', seller.at],
    ['BR-10', buyer.address !== undefined, 'An Invoice shall contain the Buyer postal address (BG-8).', buyer.at],
  ];
  if (seller.address)
    checks.push([
      'BR-09',
      has(seller.address.country),
      'The Seller postal address shall have a country code (BT-40).',
      seller.address.at,
    ]);
  if (buyer.address)
    checks.push([
      'BR-11',
      has(buyer.address.country),
      'The Buyer postal address shall have a country code (BT-55).',
      buyer.address.at,
    ]);
  checks.push(...endpoints(seller, 'BR-62', 'Seller'), ...endpoints(buyer, 'BR-63', 'Buyer'));
  const rep = doc.taxRepresentative;
  if (rep) {
    checks.push(['BR-18', has(rep.name), "The Seller tax representative's name (BT-62) shall be given.", rep.at]);
    checks.push([
      'BR-19',
      rep.address !== undefined,
      'The Seller tax representative postal address (BG-12) shall be given.',
      rep.at,
    ]);
    checks.push([
      'BR-56',
      has(rep.vatId),
      'The Seller tax representative VAT identifier (BT-63) shall be given.',
      rep.at,
    ]);
    if (rep.address)
      checks.push([
        'BR-20',
        has(rep.address.country),
        'The tax representative postal address needs a country code (BT-69).',
        rep.address.at,
      ]);
  }
  return checks;
}

function endpoints(p: Party, rule: string, who: string): Check[] {
  if (!p.endpoint) return [];
  return [[rule, !!p.endpoint.scheme, `The ${who} electronic address shall have a Scheme identifier.`, p.endpoint.at]];
}

/** A reason or a reason code: two rules say it (BR-33/38/42/44 and BR-CO-21..24), and both fire. */
const reasoned = (rules: [string, string], a: AllowanceCharge, message: string): Check[] =>
  rules.map((rule): Check => [rule, has(a.reason) || has(a.reasonCode), message, a.at]);

function lines(doc: EInvoice): Check[] {
  return doc.lines.flatMap((l): Check[] => [
    ['BR-21', has(l.id), 'Each Invoice line (BG-25) shall have an Invoice line identifier (BT-126).', l.at],
    ['BR-22', has(l.quantity), 'Each Invoice line shall have an Invoiced quantity (BT-129).', l.at],
    ['BR-23', has(l.unit), 'An Invoice line shall have an Invoiced quantity unit of measure code (BT-130).', l.at],
    ['BR-24', has(l.net), 'Each Invoice line shall have an Invoice line net amount (BT-131).', l.at],
    ['BR-25', has(l.itemName), 'Each Invoice line shall contain the Item name (BT-153).', l.at],
    ['BR-26', has(l.price), 'Each Invoice line shall contain the Item net price (BT-146).', l.at],
    [
      'BR-27',
      !l.price || !l.price.value.trim().startsWith('-'),
      'The Item net price (BT-146) shall NOT be negative.',
      l.price?.at ?? l.at,
    ],
    [
      'BR-28',
      !l.priceAllowance?.base?.value.trim().startsWith('-'),
      'The Item gross price (BT-148) shall NOT be negative.',
      l.at,
    ],
    ...l.allowances.flatMap((a): Check[] => [
      ['BR-41', has(a.amount), 'Each Invoice line allowance (BG-27) shall have an amount (BT-136).', a.at],
      ...reasoned(
        ['BR-42', 'BR-CO-23'],
        a,
        'Each Invoice line allowance (BG-27) shall have a reason (BT-139) or code (BT-140).',
      ),
    ]),
    ...l.charges.flatMap((c): Check[] => [
      ['BR-43', has(c.amount), 'Each Invoice line charge (BG-28) shall have an amount (BT-141).', c.at],
      ...reasoned(
        ['BR-44', 'BR-CO-24'],
        c,
        'Each Invoice line charge (BG-28) shall have a reason (BT-144) or code (BT-145).',
      ),
    ]),
  ]);
}

function allowancesAndCharges(doc: EInvoice): Check[] {
  const each = (list: EInvoice['allowances'], ids: string[], what: string) =>
    list.flatMap((a): Check[] => [
      [ids[0]!, has(a.amount), `Each Document level ${what} shall have an amount.`, a.at],
      [ids[1]!, has(a.vat?.code), `Each Document level ${what} shall have a VAT category code.`, a.at],
      ...reasoned([ids[2]!, ids[3]!], a, `Each Document level ${what} shall have a reason or a reason code.`),
    ]);
  return [
    ...each(doc.allowances, ['BR-31', 'BR-32', 'BR-33', 'BR-CO-21'], 'allowance (BG-20)'),
    ...each(doc.charges, ['BR-36', 'BR-37', 'BR-38', 'BR-CO-22'], 'charge (BG-21)'),
  ];
}

function breakdownAndPayment(doc: EInvoice): Check[] {
  const checks: Check[] = doc.taxTotals.flatMap((t) =>
    t.breakdown.flatMap((b): Check[] => [
      ['BR-45', has(b.taxable), 'Each VAT breakdown (BG-23) shall have a VAT category taxable amount (BT-116).', b.at],
      ['BR-46', has(b.tax), 'Each VAT breakdown (BG-23) shall have a VAT category tax amount (BT-117).', b.at],
      [
        'BR-47',
        has(b.category.code),
        'Each VAT breakdown (BG-23) shall be defined through a VAT category code (BT-118).',
        b.at,
      ],
      [
        'BR-48',
        has(b.category.rate) || b.category.code?.value.trim() === 'O',
        'Each VAT breakdown (BG-23) shall have a VAT category rate (BT-119), except if not subject to VAT.',
        b.at,
      ],
    ]),
  );
  for (const p of doc.paymentMeans) {
    checks.push([
      'BR-49',
      has(p.code),
      'A Payment instruction (BG-16) shall specify the Payment means type code (BT-81).',
      p.at,
    ]);
    const transfer = ['30', '58'].includes(p.code?.value.trim() ?? '');
    checks.push([
      'BR-61',
      !transfer || p.accounts.some(has),
      'A credit transfer shall name the Payment account identifier (BT-84).',
      p.at,
    ]);
  }
  for (const ref of doc.precedingInvoices)
    checks.push([
      'BR-55',
      has(ref.id),
      'Each Preceding Invoice reference (BG-3) shall contain a Preceding Invoice reference (BT-25).',
      ref.at,
    ]);
  if (doc.deliveryCountry !== undefined)
    checks.push([
      'BR-57',
      has(doc.deliveryCountry),
      'Each Deliver to address (BG-15) shall contain a Deliver to country code (BT-80).',
      doc.deliveryCountry.at,
    ]);
  return checks;
}

function periods(doc: EInvoice): Check[] {
  const order = (p: EInvoice['period'], rule: string, what: string): Check[] =>
    p?.start && p.end
      ? [[rule, p.end.value >= p.start.value, `${what} end date shall be later or equal to its start date.`, p.at]]
      : [];
  return [
    ...order(doc.period, 'BR-29', 'The Invoicing period'),
    ...doc.lines.flatMap((l) => order(l.period, 'BR-30', 'The Invoice line period')),
  ];
}

export const coreRules = (doc: EInvoice): Finding[] =>
  collect([
    ...header(doc),
    ...parties(doc),
    ...lines(doc),
    ...allowancesAndCharges(doc),
    ...breakdownAndPayment(doc),
    ...periods(doc),
  ]);
