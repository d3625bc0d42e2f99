import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { listPage } from '../../platform/lists.ts';
import { likeContains, firstRecord } from '../../platform/sql.ts';
import { scoped, tenantTable, type BaseQuery } from '../../platform/tenant-table.ts';
import {
  FOLDER_LIST_OPTIONS,
  FOLDER_TEMPLATE_LIST_OPTIONS,
  type FolderListParams,
  type FolderRecord,
  type FolderTemplateListParams,
  type FolderTemplateRecord,
  type TemplateNode,
} from './folders.schemas.ts';

export const folderTemplates = tenantTable('folder_templates', { alias: 'ft', softDelete: true });
/** Folders follow their client's visibility: a plain member sees the folders of the clients they see. */
export const folders = tenantTable('folders', {
  alias: 'f',
  softDelete: true,
});
type TemplateQuery = BaseQuery<'folder_templates', 'ft'>;
type FolderQuery = BaseQuery<'folders', 'f'>;

/** folders is a json array this module writes only as a checked template tree (the column's read type is unknown[]). */
const projectTemplate = (query: TemplateQuery) =>
  query
    .select(['ft.id', 'ft.name', 'ft.folders', 'ft.created_at', 'ft.updated_at'])
    .$narrowType<{ folders: TemplateNode[] }>();

export function listFolderTemplates(ctx: Ctx, params: FolderTemplateListParams) {
  return listPage<FolderTemplateRecord, FolderTemplateListParams>(ctx, {
    listId: 'folder-templates',
    params,
    options: FOLDER_TEMPLATE_LIST_OPTIONS,
    idColumn: 'ft.id',
    project: projectTemplate,
    base: (filters) => {
      const q = folderTemplates.base(ctx);
      return filters.q === undefined ? q : q.where('ft.name', 'ilike', likeContains(filters.q));
    },
  });
}

export const findFolderTemplate = (ctx: Ctx, id: number) =>
  firstRecord<FolderTemplateRecord>(projectTemplate(folderTemplates.base(ctx).where('ft.id', '=', id)));

/**
 * The path is read by walking up the parents (folders are never renamed or moved, but a stored path would be
 * one more thing to keep right). tenant: deliberate SQL, the walk stays in the outer row's company.
 */
const pathOf = sql<string>`(with recursive up(id, parent_id, name, depth) as (
    select p.id, p.parent_id, p.name, 0 from folders p where p.company_id = f.company_id and p.id = f.id
    union all
    select p.id, p.parent_id, p.name, up.depth + 1 from folders p join up on p.company_id = f.company_id and p.id = up.parent_id
  ) select string_agg(up.name, '/' order by up.depth desc) from up)`;

const projectFolder = (query: FolderQuery) =>
  query.select([
    'f.id',
    'f.client_id',
    'f.parent_id',
    'f.name',
    pathOf.as('path'),
    'f.drive_path',
    'f.created_at',
    'f.updated_at',
  ]);

export function listFolders(ctx: Ctx, params: FolderListParams) {
  return listPage<FolderRecord, FolderListParams>(ctx, {
    listId: 'folders',
    params,
    options: FOLDER_LIST_OPTIONS,
    idColumn: 'f.id',
    project: projectFolder,
    base: (filters) => {
      let q = folders.base(ctx);
      if (filters.client_id !== undefined) q = q.where('f.client_id', '=', filters.client_id);
      if (filters.parent_id !== undefined) q = q.where('f.parent_id', '=', filters.parent_id);
      if (filters.q !== undefined) q = q.where('f.name', 'ilike', likeContains(filters.q));
      return q;
    },
  });
}

export const findFolder = (ctx: Ctx, id: number) =>
  firstRecord<FolderRecord>(projectFolder(folders.base(ctx).where('f.id', '=', id)));

export interface FolderRow {
  id: number;
  parent_id: number | null;
  name: string;
  drive_path: string | null;
}

/** Every live folder of a client, parents before children (ids grow with creation, a parent exists first). */
export const clientFolders = (ctx: Ctx, clientId: number): Promise<FolderRow[]> =>
  folders
    .base(ctx)
    .where('f.client_id', '=', clientId)
    .select(['f.id', 'f.parent_id', 'f.name', 'f.drive_path'])
    .orderBy('f.id')
    .execute();

export const insertFolder = (ctx: Ctx, clientId: number, parentId: number | null, name: string) =>
  folders.insert(ctx, { client_id: clientId, parent_id: parentId, name });

export const setDrivePath = (ctx: Ctx, id: number, drivePath: string) =>
  folders.update(ctx, id, { drive_path: drivePath });

export async function assignedTemplate(ctx: Ctx, clientId: number): Promise<number | null> {
  const row = await scoped
    .select(ctx, 'client_folder_templates', 'a')
    .select('a.folder_template_id')
    .where('a.client_id', '=', clientId)
    .executeTakeFirst();
  return row?.folder_template_id ?? null;
}

export async function assignTemplate(ctx: Ctx, clientId: number, templateId: number | null): Promise<void> {
  await scoped.delete(ctx, 'client_folder_templates').where('client_id', '=', clientId).execute();
  if (templateId !== null)
    await scoped
      .insert(ctx, 'client_folder_templates', [{ client_id: clientId, folder_template_id: templateId }])
      .execute();
}
