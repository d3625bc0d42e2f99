import type { Ctx } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { activeKinds } from './product-fields.repository.ts';
import type { ProductFieldKind } from './product-fields.schemas.ts';

/** The columns of products, contract rows and invoice rows that name a product field, and the kind each takes. */
export interface ProductFieldRefs {
  article_id?: number | null;
  resource_id?: number | null;
  billing_project_id?: number | null;
}
const REFERENCES = [
  { field: 'article_id', kind: 'article', code: 'INVALID_ARTICLE' },
  { field: 'resource_id', kind: 'resource', code: 'INVALID_RESOURCE' },
  { field: 'billing_project_id', kind: 'billing_project', code: 'INVALID_BILLING_PROJECT' },
] as const;

/** The kinds of the live, active product fields the bodies name (looked up once for a batch of rows). */
export type ProductFieldFacts = Map<number, ProductFieldKind>;

export async function productFieldFacts(ctx: Ctx, bodies: ReadonlyArray<ProductFieldRefs>): Promise<ProductFieldFacts> {
  const ids = new Set<number>();
  for (const body of bodies)
    for (const { field } of REFERENCES) {
      const id = body[field];
      if (typeof id === 'number') ids.add(id);
    }
  return activeKinds(ctx, [...ids]);
}

/**
 * The first reference of a body that is not a live, active product field of its column's kind in this company:
 * 400 INVALID_ARTICLE / INVALID_RESOURCE / INVALID_BILLING_PROJECT naming the field. null clears, always fine.
 */
export function productFieldProblem(
  body: ProductFieldRefs,
  facts: ProductFieldFacts,
  prefix = '',
): AppError | undefined {
  for (const { field, kind, code } of REFERENCES) {
    const id = body[field];
    if (typeof id === 'number' && facts.get(id) !== kind)
      return new AppError(
        code,
        `${prefix}${field} ${id} does not name an active ${kind.replace('_', ' ')} product field of this company`,
        {
          field: `${prefix}${field}`,
          value: id,
        },
      );
  }
  return undefined;
}

/** For one body (a product, an invoice row): throws the first problem. */
export async function assertProductFieldReferences(ctx: Ctx, body: ProductFieldRefs): Promise<void> {
  const problem = productFieldProblem(body, await productFieldFacts(ctx, [body]));
  if (problem) throw problem;
}
