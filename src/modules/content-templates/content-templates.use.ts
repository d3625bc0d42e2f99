import type { Ctx } from '../../platform/context.ts';
import {
  localeOrUndefined,
  pickRow,
  renderRow,
  type PlaceholderValues,
  type RenderedMail,
  type TemplateType,
} from './content-templates.render.ts';
import * as repo from './content-templates.repository.ts';
import type { ContentTemplateRecord } from './content-templates.schemas.ts';

export interface RenderedTemplate extends RenderedMail {
  template_id: number;
  /** The locale of the row used. */
  locale: string;
}

/**
 * Renders one template for a recipient: the row of their locale, else the template's default locale
 * (see pickRow). company.name is always offered; the caller's values fill the rest. Undefined when the
 * template has no row that fits.
 */
export function renderTemplate(
  ctx: Ctx,
  template: ContentTemplateRecord,
  locale: string | null | undefined,
  values: PlaceholderValues,
): RenderedTemplate | undefined {
  const row = pickRow(template.rows, localeOrUndefined(locale), template.default_locale);
  if (!row) return undefined;
  const rendered = renderRow(template.format, row, { 'company.name': ctx.company.name, ...values });
  return { ...rendered, template_id: template.id, locale: row.locale };
}

/**
 * What the service's own mail of a type says for a recipient: the company's active default template of
 * that type. Undefined when the company has none (or it has no row that fits): the caller then uses its
 * built-in text.
 */
export async function renderCompanyTemplate(
  ctx: Ctx,
  type: TemplateType,
  locale: string | null | undefined,
  values: PlaceholderValues,
): Promise<RenderedTemplate | undefined> {
  const template = await repo.findDefault(ctx, type);
  return template ? renderTemplate(ctx, template, locale, values) : undefined;
}
