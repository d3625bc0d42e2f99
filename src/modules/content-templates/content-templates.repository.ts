import type { ContentTemplateListParams } from './content-templates.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { splitList } from '../../platform/fields.ts';
import { listPage, type ListFilters } from '../../platform/lists.ts';
import { likeContains, firstRecord } from '../../platform/sql.ts';
import { tenantTable, type BaseQuery, lockCompanyScope } from '../../platform/tenant-table.ts';
import {
  CONTENT_TEMPLATE_LIST_OPTIONS,
  type ContentTemplateRecord,
  type ContentTemplateRowRecord,
} from './content-templates.schemas.ts';
import type { Channel, TemplateType } from './content-templates.render.ts';

export const templates = tenantTable('content_templates', {
  alias: 't',
  softDelete: true,
  lockColumns: ['type', 'channel', 'format'],
});
export const templateRows = tenantTable('content_template_rows', { alias: 'r', softDelete: true });
type Query = BaseQuery<'content_templates', 't'>;
type Header = Omit<ContentTemplateRecord, 'rows'>;

function project(query: Query) {
  return query.select([
    't.id',
    't.name',
    't.type',
    't.channel',
    't.format',
    't.status',
    't.is_default',
    't.default_locale',
    't.created_at',
    't.updated_at',
  ]);
}

function applyFilters(query: Query, filters: ListFilters<ContentTemplateListParams>) {
  let q = query;
  // The list query's EnumList patterns admit only these values; splitList cannot carry that type.
  const types = splitList(filters.type) as TemplateType[] | undefined;
  if (types) q = q.where('t.type', 'in', types);
  const channels = splitList(filters.channel) as Channel[] | undefined;
  if (channels) q = q.where('t.channel', 'in', channels);
  const statuses = splitList(filters.status) as Array<'active' | 'inactive'> | undefined;
  if (statuses) q = q.where('t.status', 'in', statuses);
  if (filters.q !== undefined) q = q.where('t.name', 'ilike', likeContains(filters.q));
  return q;
}

/** Live rows of the given templates, by locale; one query for a whole page. */
export async function rowsOf(ctx: Ctx, templateIds: readonly number[]): Promise<ContentTemplateRowRecord[]> {
  if (templateIds.length === 0) return [];
  return templateRows
    .base(ctx)
    .select(['r.id', 'r.template_id', 'r.locale', 'r.subject', 'r.body', 'r.created_at', 'r.updated_at'])
    .where('r.template_id', 'in', [...templateIds])
    .orderBy('r.template_id')
    .orderBy('r.locale')
    .execute() as Promise<ContentTemplateRowRecord[]>;
}

async function withRows(ctx: Ctx, headers: Header[]): Promise<ContentTemplateRecord[]> {
  const rows = await rowsOf(
    ctx,
    headers.map((h) => h.id),
  );
  return headers.map((h) => ({ ...h, rows: rows.filter((r) => r.template_id === h.id) }));
}

export async function listTemplates(ctx: Ctx, params: ContentTemplateListParams) {
  const page = await listPage<Header, ContentTemplateListParams>(ctx, {
    listId: 'content-templates',
    params,
    options: CONTENT_TEMPLATE_LIST_OPTIONS,
    idColumn: 't.id',
    project,
    base: (filters) => applyFilters(templates.base(ctx), filters),
  });
  return { ...page, data: await withRows(ctx, page.data) };
}

export async function findTemplate(ctx: Ctx, id: number): Promise<ContentTemplateRecord | undefined> {
  const header = (await project(templates.base(ctx).where('t.id', '=', id)).executeTakeFirst()) as Header | undefined;
  return header ? (await withRows(ctx, [header]))[0] : undefined;
}

/** The template the service itself uses for a type: the live, active default of the email channel. */
export async function findDefault(ctx: Ctx, type: TemplateType): Promise<ContentTemplateRecord | undefined> {
  const header = (await project(templates.base(ctx))
    .where('t.type', '=', type)
    .where('t.channel', '=', 'email')
    .where('t.status', '=', 'active')
    .where('t.is_default', '=', true)
    .executeTakeFirst()) as Header | undefined;
  return header ? (await withRows(ctx, [header]))[0] : undefined;
}

/**
 * Clears the default flag of the type's other templates (the partial unique index allows one). Called
 * before the new default is written; the transaction lock serialises two concurrent "make me default"s.
 */
export async function clearDefault(ctx: Ctx, type: TemplateType, channel: Channel, keepId = 0): Promise<void> {
  await lockCompanyScope(ctx, `content_template_default:${type}:${channel}`);
  const others = await templates
    .base(ctx)
    .select('t.id')
    .where('t.type', '=', type)
    .where('t.channel', '=', channel)
    .where('t.is_default', '=', true)
    .where('t.id', '<>', keepId)
    .execute();
  await templates.update(
    ctx,
    others.map((o) => o.id),
    { is_default: false },
  );
}

export async function findRow(ctx: Ctx, templateId: number, rowId: number) {
  return firstRecord<ContentTemplateRowRecord>(
    templateRows
      .base(ctx)
      .select(['r.id', 'r.template_id', 'r.locale', 'r.subject', 'r.body', 'r.created_at', 'r.updated_at'])
      .where('r.template_id', '=', templateId)
      .where('r.id', '=', rowId),
  );
}

export async function findRowByLocale(ctx: Ctx, templateId: number, locale: string) {
  return templateRows
    .base(ctx)
    .select(['r.id'])
    .where('r.template_id', '=', templateId)
    .where('r.locale', '=', locale)
    .executeTakeFirst();
}
