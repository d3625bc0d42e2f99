import type { ContentTemplateListParams } from './content-templates.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { domainValidation } from '../../platform/errors.ts';
import { safeHtml } from '../../platform/html.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import {
  assertPlaceholders,
  normalizeLocale,
  type Channel,
  type TemplateFormat,
  type TemplateType,
} from './content-templates.render.ts';
import * as repo from './content-templates.repository.ts';
import type {
  ContentTemplateCreateBody,
  ContentTemplateRecord,
  ContentTemplateRowRecord,
  ContentTemplateUpdateBody,
  RowInputBody,
  RowPatchBody,
} from './content-templates.schemas.ts';

interface Locked {
  id: number;
  updated_at: string;
  type: TemplateType;
  channel: Channel;
  format: TemplateFormat;
}
const lockTemplate = (ctx: Ctx, id: number) => repo.templates.lock(ctx, id) as Promise<Locked | undefined>;
const target = { what: 'Content template', lock: lockTemplate, read: repo.findTemplate };

export const listTemplates = (ctx: Ctx, params: ContentTemplateListParams) => repo.listTemplates(ctx, params);

export async function getTemplate(ctx: Ctx, id: number): Promise<ContentTemplateRecord> {
  return orNotFound(await repo.findTemplate(ctx, id), 'Content template');
}

/** Checks a row against its template (placeholders of the type) and stores HTML bodies sanitized. */
function prepareRow<T extends Partial<RowInputBody>>(
  template: { type: TemplateType; format: TemplateFormat },
  row: T,
  at: string,
): T {
  if (row.subject !== undefined) assertPlaceholders(template.type, `${at}subject`, row.subject);
  if (row.body !== undefined) assertPlaceholders(template.type, `${at}body`, row.body);
  return {
    ...row,
    ...(row.locale !== undefined ? { locale: normalizeLocale(row.locale) } : {}),
    ...(row.body !== undefined && template.format === 'html' ? { body: safeHtml(row.body) } : {}),
  };
}

function prepareRows(template: { type: TemplateType; format: TemplateFormat }, rows: RowInputBody[]): RowInputBody[] {
  const prepared = rows.map((row, i) => prepareRow(template, row, `rows[${i}].`));
  const seen = new Set<string>();
  prepared.forEach((row, i) => {
    if (seen.has(row.locale))
      throw domainValidation('DUPLICATE_LOCALE', `rows[${i}].locale: ${row.locale} appears twice; one row per locale`, {
        field: `rows[${i}].locale`,
      });
    seen.add(row.locale);
  });
  return prepared;
}

export async function createTemplate(ctx: Ctx, body: ContentTemplateCreateBody): Promise<ContentTemplateRecord> {
  const shape = { type: body.type, format: body.format ?? 'text' } as const;
  const rows = prepareRows(shape, body.rows ?? []);
  return inTransaction(ctx, async (tx) => {
    if (body.is_default) await repo.clearDefault(tx, body.type, body.channel ?? 'email');
    const id = await repo.templates.insert(tx, {
      name: body.name,
      type: body.type,
      channel: body.channel ?? 'email',
      format: shape.format,
      status: body.status ?? 'active',
      is_default: body.is_default ?? false,
      default_locale: normalizeLocale(body.default_locale ?? 'en'),
    });
    for (const row of rows) await repo.templateRows.insert(tx, { ...row, template_id: id });
    return getTemplate(tx, id);
  });
}

export const updateTemplate = (ctx: Ctx, id: number, body: ContentTemplateUpdateBody) =>
  mutate(ctx, target, id, body, async (tx, locked) => {
    const { default_locale: locale, ...rest } = body;
    if (body.is_default) await repo.clearDefault(tx, locked.type, body.channel ?? locked.channel, id);
    await repo.templates.update(tx, id, {
      ...rest,
      ...(locale !== undefined ? { default_locale: normalizeLocale(locale) } : {}),
    });
  });

/** Soft delete; the rows stay with it (a deleted template is never used again). */
export const deleteTemplate = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, (tx) => repo.templates.softDelete(tx, id));

/**
 * One row per locale: the locale's live row is replaced (created false), or a new one is added (created
 * true). The template's updated_at moves on either way, since its rows are part of what it reads as.
 */
export async function upsertRow(
  ctx: Ctx,
  templateId: number,
  body: RowInputBody,
): Promise<{ row: ContentTemplateRowRecord; created: boolean }> {
  return inTransaction(ctx, async (tx) => {
    const template = orNotFound(await lockTemplate(tx, templateId), 'Content template');
    const row = prepareRow(template, body, '');
    const existing = await repo.findRowByLocale(tx, templateId, row.locale);
    let rowId = existing?.id;
    if (rowId !== undefined) await repo.templateRows.update(tx, rowId, { subject: row.subject, body: row.body });
    else rowId = await repo.templateRows.insert(tx, { ...row, template_id: templateId });
    await repo.templates.update(tx, templateId, {});
    return { row: orNotFound(await repo.findRow(tx, templateId, rowId), 'Content template row'), created: !existing };
  });
}

export async function updateRow(ctx: Ctx, templateId: number, rowId: number, body: RowPatchBody) {
  return inTransaction(ctx, async (tx) => {
    const template = orNotFound(await lockTemplate(tx, templateId), 'Content template');
    const current = orNotFound(await repo.findRow(tx, templateId, rowId), 'Content template row');
    if (Object.keys(body).length === 0) return current;
    await repo.templateRows.update(tx, rowId, prepareRow(template, body, ''));
    await repo.templates.update(tx, templateId, {});
    return orNotFound(await repo.findRow(tx, templateId, rowId), 'Content template row');
  });
}

export async function deleteRow(ctx: Ctx, templateId: number, rowId: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    orNotFound(await lockTemplate(tx, templateId), 'Content template');
    orNotFound(await repo.findRow(tx, templateId, rowId), 'Content template row');
    await repo.templateRows.softDelete(tx, rowId);
    await repo.templates.update(tx, templateId, {});
  });
}
