import type { Static } from 'typebox';
import type { Ctx } from '../../platform/context.ts';
import { AppError, domainValidation, type ErrorCode } from '../../platform/errors.ts';
import type { Warning } from '../../platform/http.ts';
import { AMOUNT, decimalInput } from '../../platform/money.ts';
import { checkerOf } from '../../platform/validation.ts';
import { productFieldFacts, productFieldProblem, type ProductFieldFacts } from '../product-fields/index.ts';
import { productFacts, type ProductFacts } from '../products/index.ts';
import { taxFacts } from '../taxes/index.ts';
import type { RowColumns } from './contract-rows.repository.ts';
import { RowCreate, type RowCreateBody, type RowUpdateBody } from './contracts.row-schemas.ts';
import type { RowRejectionRecord } from './contracts.schemas.ts';

type WarningRecord = Static<typeof Warning>;
const INT_MAX = 2147483647;

/** The products and taxes a set of rows names, read once for all of them. */
export interface RowFacts {
  products: Map<number, ProductFacts>;
  taxes: Map<number, { status: string }>;
  fields: ProductFieldFacts;
}

export async function loadFacts(
  ctx: Ctx,
  bodies: ReadonlyArray<
    Pick<RowUpdateBody, 'product_id' | 'tax_id' | 'article_id' | 'resource_id' | 'billing_project_id'>
  >,
) {
  const productIds = [...new Set(bodies.map((b) => b.product_id).filter((id): id is number => id != null))];
  const products = await productFacts(ctx, productIds);
  const taxIds = new Set<number>();
  for (const body of bodies) if (body.tax_id != null) taxIds.add(body.tax_id);
  for (const product of products.values()) if (product.tax_id !== null) taxIds.add(product.tax_id);
  const fields = await productFieldFacts(ctx, bodies);
  return { products, taxes: await taxFacts(ctx, [...taxIds]), fields } satisfies RowFacts;
}

/** The amounts of a row body as exact decimal text for the numeric columns; 400-style AppError on the first bad one. */
function amountColumns(body: RowUpdateBody): Partial<RowColumns> {
  const out: Partial<RowColumns> = {};
  if (body.quantity !== undefined) out.quantity = decimalInput('quantity', body.quantity, AMOUNT.quantity);
  if (body.net_price !== undefined)
    out.net_price = body.net_price === null ? null : decimalInput('net_price', body.net_price, AMOUNT.unitPrice);
  if (body.discount_rate !== undefined)
    out.discount_rate = decimalInput('discount_rate', body.discount_rate, AMOUNT.discountPercent);
  const minutes = body.invoice_time_min;
  if (minutes != null && (minutes < 0 || minutes > INT_MAX))
    throw domainValidation('OUT_OF_RANGE', 'invoice_time_min must be a whole number of minutes from 0 to 2147483647', {
      field: 'invoice_time_min',
    });
  return out;
}

/** References a row body names that are not this company's: INVALID_PRODUCT / INVALID_TAX / INVALID_ARTICLE... */
function referenceProblem(body: RowUpdateBody, facts: RowFacts): AppError | undefined {
  if (body.product_id != null && !facts.products.has(body.product_id))
    return new AppError('INVALID_PRODUCT', `product_id ${body.product_id} does not name a product of this company`, {
      field: 'product_id',
      value: body.product_id,
    });
  if (body.tax_id != null && !facts.taxes.has(body.tax_id))
    return new AppError('INVALID_TAX', `tax_id ${body.tax_id} does not name a tax of this company`, {
      field: 'tax_id',
      value: body.tax_id,
    });
  return productFieldProblem(body, facts.fields);
}

/**
 * The row create rule: amounts within their columns, product and tax of this company. A new row takes the
 * product's name, unit and tax for what it does not send (an explicit null is kept). Throws the first problem.
 */
export function createColumns(body: RowCreateBody, facts: RowFacts): RowColumns {
  const amounts = amountColumns(body);
  const problem = referenceProblem(body, facts);
  if (problem) throw problem;
  const product = body.product_id == null ? undefined : facts.products.get(body.product_id);
  const { quantity: _q, net_price: _n, discount_rate: _d, ...plain } = body;
  return {
    description: product?.name ?? null,
    unit: product?.unit ?? null,
    tax_id: product?.tax_id ?? null,
    product_id: null,
    invoice_time_min: null,
    article_id: null,
    resource_id: null,
    billing_project_id: null,
    ext_variable: null,
    quantity: '1',
    discount_rate: '0',
    net_price: null,
    ...plain,
    ...amounts,
  };
}

/** A PATCH: only the sent fields, checked the same way (no product defaults: what is stored stays). */
export function updateColumns(body: RowUpdateBody, facts: RowFacts): Partial<RowColumns> {
  const amounts = amountColumns(body);
  const problem = referenceProblem(body, facts);
  if (problem) throw problem;
  const { quantity: _q, net_price: _n, discount_rate: _d, ...plain } = body;
  return { ...plain, ...amounts };
}

const checkRow = checkerOf(RowCreate);

/**
 * A row of a create body checked for its shape, as the row routes' validator would check it: the typed row, or its
 * refusal by row_index (a wrong type refuses the row, not the whole body).
 */
export function shapedRow(index: number, row: unknown): { row: RowCreateBody } | { rejection: RowRejectionRecord } {
  const checked = checkRow(row);
  if (checked.ok) return { row: checked.value };
  const field = checked.problems[0]?.field ?? '';
  const message = `${field || 'the row'} ${checked.problems[0]?.message ?? 'is invalid'}`;
  return { rejection: { row_index: index, code: 'VALIDATION_ERROR', message, ...(field ? { field } : {}) } };
}

/** A refused row of a create body, as the 422 and the preview list it. */
export function rejectionOf(index: number, error: unknown): RowRejectionRecord {
  if (!(error instanceof AppError)) throw error;
  const field = error.details?.field;
  return {
    row_index: index,
    code: error.code as ErrorCode,
    message: error.message,
    ...(typeof field === 'string' ? { field } : {}),
  };
}

/** What a stored row looks like for the warnings. */
export interface RowView {
  product_id?: number | null;
  tax_id?: number | null;
  net_price?: string | number | null;
}

/** Non-blocking notes on a row: a retired product or tax, or no price anywhere (row, own prices, product). */
export function rowWarnings(view: RowView, facts: RowFacts, ownPrices: boolean, index?: number): WarningRecord[] {
  const at = index === undefined ? {} : { row_index: index };
  const out: WarningRecord[] = [];
  const product = view.product_id == null ? undefined : facts.products.get(view.product_id);
  if (product && product.status !== 'active')
    out.push({
      code: 'PRODUCT_INACTIVE',
      message: `Product ${product.id} is ${product.status}; the row still bills it`,
      details: { ...at, product_id: product.id },
    });
  const tax = view.tax_id == null ? undefined : facts.taxes.get(view.tax_id);
  if (tax && tax.status !== 'active')
    out.push({
      code: 'TAX_INACTIVE',
      message: `Tax ${view.tax_id} is ${tax.status}`,
      details: { ...at, tax_id: view.tax_id },
    });
  if (view.net_price == null && !ownPrices && !product?.priced)
    out.push({
      code: 'ROW_WITHOUT_PRICE',
      message: 'The row has no net_price, no prices of its own and no product price; it bills nothing until priced',
      details: { ...at },
    });
  return out.map((w) => (index === undefined ? w : { ...w, index }));
}
