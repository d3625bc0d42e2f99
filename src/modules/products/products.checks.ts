import type { Ctx } from '../../platform/context.ts';
import { AppError, domainValidation, invalidReference } from '../../platform/errors.ts';
import { assertReferenceList } from '../../platform/references.ts';
import { assertProductFieldReferences } from '../product-fields/index.ts';
import { taxFacts } from '../taxes/index.ts';
import { TYPE_ARG_KEYS, type ProductType, type ProductUpdateBody } from './products.schemas.ts';

/** type_args may carry only the keys of the product's type (docs/decisions/0018). */
export function assertTypeArgs(type: ProductType, typeArgs: unknown): void {
  if (typeArgs === null || typeArgs === undefined) return;
  const allowed = TYPE_ARG_KEYS[type];
  const refused = Object.keys(typeArgs as object).filter((key) => !allowed.includes(key));
  if (refused.length)
    throw domainValidation(
      'INVALID_TYPE_ARGS',
      `type_args of a ${type} product ${allowed.length ? `take only ${allowed.join(', ')}` : 'take no keys'}; not ${refused.join(', ')}`,
      { field: 'type_args', refused, allowed },
    );
}

/**
 * References in a product body: topics must be live topics of the company (VALIDATION_ERROR, reason
 * INVALID_TOPIC), tax_id a tax of the company (INVALID_TAX); a newly assigned tax must be active; article_id,
 * resource_id and billing_project_id active product fields of their kind (INVALID_ARTICLE...).
 */
export async function assertProductReferences(
  ctx: Ctx,
  body: ProductUpdateBody,
  currentTaxId: number | null = null,
): Promise<void> {
  await assertReferenceList(ctx, 'topics', 'INVALID_TOPIC', 'topics', body.topics);
  await assertProductFieldReferences(ctx, body);
  const taxId = body.tax_id;
  if (taxId === undefined || taxId === null) return;
  const status = (await taxFacts(ctx, [taxId])).get(taxId)?.status;
  if (status === undefined) throw invalidReference('tax', 'tax_id', taxId);
  if (status !== 'active' && taxId !== currentTaxId)
    throw new AppError('INVALID_TAX', `tax_id ${taxId} names an inactive tax; activate it or choose another`, {
      field: 'tax_id',
      value: taxId,
      reason: 'INACTIVE_TAX',
    });
}
