import type { Ctx } from '../../platform/context.ts';
import { domainValidation, invalidReference } from '../../platform/errors.ts';
import { AMOUNT, decimalInput, rowSums } from '../../platform/money.ts';
import { liveIds } from '../../platform/references.ts';
import type { NewRow } from '../../platform/tenant-table.ts';
import { productFieldFacts, productFieldProblem } from '../product-fields/index.ts';
import { priceOn, productFacts } from '../products/index.ts';
import { taxFacts } from '../taxes/index.ts';
import type { InvoiceRowInput } from './invoices.schemas.ts';

/**
 * Invoice row rules: (1) tax_id alone decides the tax, its rate and name read from the company's tax
 * record; (2) tax_rate, tax_name, tax_sum (and the derived net_sum) sent are ignored; (3) net_sum =
 * quantity × net_price − discount, rounded per row by money.ts. A product fills the omitted net_price
 * (its price effective on the invoice date), description and unit.
 */
export interface InvoiceTerms {
  invoice_date: string;
  currency: string;
}
/** The stored amounts a PATCH starts from (numeric text). */
export interface RowBase {
  quantity: string;
  net_price: string;
  discount_rate: string;
  tax_id: number | null;
  period_start?: string | null;
  period_end?: string | null;
}
type RowColumns = Omit<NewRow<'invoice_rows'>, 'invoice_id'>;

interface Lookups {
  taxes: Map<number, { name: string; rate: string }>;
  products: Map<number, { name: string; unit: string | null }>;
  prices: Map<number, string>;
}

const fieldOf = (prefix: string, field: string) => `${prefix}${field}`;
const sentIds = (inputs: readonly InvoiceRowInput[], key: keyof InvoiceRowInput) =>
  inputs.flatMap((row, i) => (typeof row[key] === 'number' ? [[i, row[key] as number] as const] : []));

/** 400 INVALID_<ENTITY> naming the first row whose reference is not a live record of this company. */
function assertFound(
  sent: ReadonlyArray<readonly [number, number]>,
  found: { has(id: number): boolean },
  entity: string,
  field: string,
  prefixOf: (i: number) => string,
): void {
  const missing = sent.find(([, id]) => !found.has(id));
  if (missing) throw invalidReference(entity, fieldOf(prefixOf(missing[0]), field), missing[1]);
}

/** Each product's price effective on the invoice date in the invoice currency (the products module's rule). */
async function loadPrices(ctx: Ctx, ids: readonly number[], terms: InvoiceTerms): Promise<Map<number, string>> {
  const prices = new Map<number, string>();
  for (const id of new Set(ids)) {
    const price = await priceOn(ctx, id, terms.invoice_date, terms.currency);
    if (price !== undefined) prices.set(id, price);
  }
  return prices;
}

/** Checks every reference of the rows in a few queries (not one per row) and reads what they bring. */
export async function loadLookups(
  ctx: Ctx,
  inputs: readonly InvoiceRowInput[],
  terms: InvoiceTerms,
  prefixOf: (i: number) => string,
): Promise<Lookups> {
  const taxIds = sentIds(inputs, 'tax_id');
  const productIds = sentIds(inputs, 'product_id');
  const personIds = sentIds(inputs, 'person_id');
  const clientIds = sentIds(inputs, 'original_client_id');
  const taxes = await taxFacts(
    ctx,
    taxIds.map(([, id]) => id),
  );
  assertFound(taxIds, taxes, 'tax', 'tax_id', prefixOf);
  const products = await productFacts(
    ctx,
    productIds.map(([, id]) => id),
  );
  assertFound(productIds, products, 'product', 'product_id', prefixOf);
  assertFound(
    personIds,
    await liveIds(
      ctx,
      'people',
      personIds.map(([, id]) => id),
    ),
    'person',
    'person_id',
    prefixOf,
  );
  const clients = await liveIds(
    ctx,
    'clients',
    clientIds.map(([, id]) => id),
  );
  assertFound(clientIds, clients, 'client', 'original_client_id', prefixOf);
  const fields = await productFieldFacts(ctx, inputs);
  for (const [i, input] of inputs.entries()) {
    const problem = productFieldProblem(input, fields, prefixOf(i));
    if (problem) throw problem;
  }
  const unpriced = productIds.filter(([i]) => inputs[i]!.net_price === undefined).map(([, id]) => id);
  return { taxes, products, prices: await loadPrices(ctx, unpriced, terms) };
}

const PASSED = [
  'description',
  'unit',
  'person_id',
  'completed_at',
  'product_id',
  'article_id',
  'resource_id',
  'billing_project_id',
  'ext_variable',
  'original_client_id',
] as const;

/** The omitted net_price, description and unit from the product the input sends. */
function productDefaults(input: InvoiceRowInput, lookups: Lookups, prefix: string) {
  const out: Partial<RowColumns> = {};
  if (typeof input.product_id !== 'number') return out;
  const product = lookups.products.get(input.product_id)!;
  if (input.description === undefined) out.description = product.name;
  if (input.unit === undefined) out.unit = product.unit;
  if (input.net_price === undefined) {
    const price = lookups.prices.get(input.product_id);
    if (price === undefined)
      throw domainValidation(
        'PRICE_REQUIRED',
        `${prefix}net_price is required: product ${input.product_id} has no price effective on the invoice date`,
        { field: `${prefix}net_price`, product_id: input.product_id },
      );
    out.net_price = price;
  }
  return out;
}

/** The service period after this write (BG-26): both days or neither, the start not after the end. */
function rowPeriod(input: InvoiceRowInput, base: RowBase | undefined, prefix: string): Partial<RowColumns> {
  if (input.period_start === undefined && input.period_end === undefined) return {};
  const start = input.period_start !== undefined ? input.period_start : (base?.period_start ?? null);
  const end = input.period_end !== undefined ? input.period_end : (base?.period_end ?? null);
  if ((start === null) !== (end === null))
    throw domainValidation('DATE_RANGE_INCOMPLETE', 'period_start and period_end are both set or both null', {
      field: `${prefix}${start === null ? 'period_start' : 'period_end'}`,
    });
  if (start !== null && end !== null && start > end)
    throw domainValidation('INVALID_DATE_RANGE', 'period_end must not be before period_start', {
      field: `${prefix}period_end`,
    });
  return { period_start: start, period_end: end };
}

/**
 * The columns to store for one row write: a create (base undefined) or a PATCH on the stored `base`.
 * Amounts are checked against their columns; the sums come from money.ts only.
 */
export function rowColumns(
  input: InvoiceRowInput,
  base: RowBase | undefined,
  lookups: Lookups,
  currency: string,
  prefix = '',
): RowColumns {
  const out: RowColumns = { ...productDefaults(input, lookups, prefix), ...rowPeriod(input, base, prefix) };
  for (const field of PASSED) if (input[field] !== undefined) (out as Record<string, unknown>)[field] = input[field];
  if (input.quantity !== undefined) out.quantity = decimalInput(`${prefix}quantity`, input.quantity, AMOUNT.quantity);
  if (input.net_price !== undefined)
    out.net_price = decimalInput(`${prefix}net_price`, input.net_price, AMOUNT.unitPrice);
  if (input.discount_rate !== undefined)
    out.discount_rate = decimalInput(`${prefix}discount_rate`, input.discount_rate, AMOUNT.discountPercent);
  const taxId = input.tax_id !== undefined ? input.tax_id : (base?.tax_id ?? null);
  const tax = taxId === null ? undefined : lookups.taxes.get(taxId);
  out.tax_id = taxId;
  out.tax_rate = tax?.rate ?? null;
  out.tax_name = tax?.name ?? null;
  const amounts = {
    quantity: out.quantity ?? base?.quantity ?? '1',
    net_price: out.net_price ?? base?.net_price ?? '0',
    discount_rate: out.discount_rate ?? base?.discount_rate ?? '0',
    tax_rate: out.tax_rate,
  };
  const sums = rowSums(amounts, currency);
  out.net_sum = decimalInput(`${prefix}net_sum`, sums.net_sum, AMOUNT.sum);
  out.tax_sum = decimalInput(`${prefix}tax_sum`, sums.tax_sum, AMOUNT.sum);
  return out;
}
