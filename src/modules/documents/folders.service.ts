import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, domainValidation, invalidReference } from '../../platform/errors.ts';
import { orNotFound } from '../../platform/mutate.ts';
import { lockLive } from '../../platform/references.ts';
import { clientSeen } from '../clients/index.ts';
import {
  TEMPLATE_MAX_FOLDERS,
  type FolderCreateBody,
  type FolderListParams,
  type FolderRecord,
  type FolderTemplateAssignBody,
  type FolderTemplateCreateBody,
  type FolderTemplateListParams,
  type FolderTemplateRecord,
  type FolderTreeRecord,
  type TemplateNode,
  type TreeNode,
} from './folders.schemas.ts';
import * as repo from './folders.repository.ts';

/** The name every client's root folder gets; what the drive holds for a client hangs below it. */
export const ROOT_NAME = 'Documents';
/** Folder levels below the root a client's tree may have (a template brings at most 4 of them). */
export const MAX_DEPTH = 10;

export const listFolderTemplates = (ctx: Ctx, params: FolderTemplateListParams) =>
  repo.listFolderTemplates(ctx, params);

export async function getFolderTemplate(ctx: Ctx, id: number): Promise<FolderTemplateRecord> {
  return orNotFound(await repo.findFolderTemplate(ctx, id), 'Folder template');
}

/** Counts the tree's folders and refuses two siblings with the same name (names are compared case-insensitively). */
function checkTemplate(nodes: TemplateNode[], path = 'folders'): number {
  const seen = new Set<string>();
  let count = 0;
  nodes.forEach((node, index) => {
    const key = node.name.toLowerCase();
    if (seen.has(key))
      throw domainValidation('DUPLICATE_FOLDER_NAME', `${path} has two folders named "${node.name}"`, {
        field: `${path}[${index}].name`,
      });
    seen.add(key);
    count += 1 + checkTemplate(node.children ?? [], `${path}[${index}].children`);
  });
  return count;
}

export async function createFolderTemplate(ctx: Ctx, body: FolderTemplateCreateBody): Promise<FolderTemplateRecord> {
  const count = checkTemplate(body.folders);
  if (count > TEMPLATE_MAX_FOLDERS)
    throw domainValidation(
      'TOO_MANY_FOLDERS',
      `A template holds at most ${TEMPLATE_MAX_FOLDERS} folders, got ${count}`,
      {
        field: 'folders',
      },
    );
  return inTransaction(ctx, async (tx) => {
    const id = await repo.folderTemplates.insert(tx, { name: body.name, folders: JSON.stringify(body.folders) });
    return getFolderTemplate(tx, id);
  });
}

export const listFolders = (ctx: Ctx, params: FolderListParams) => repo.listFolders(ctx, params);

export async function getFolder(ctx: Ctx, id: number): Promise<FolderRecord> {
  return orNotFound(await repo.findFolder(ctx, id), 'Folder');
}

/** Locks the live client the caller may see (its tree's writes are serialised on it), or fails as `missing`. */
export async function lockClient(ctx: Ctx, clientId: number, missing: 'reference' | 'path'): Promise<void> {
  if (await lockLive(ctx, 'clients', clientId)) return;
  if (missing === 'path') throw new AppError('NOT_FOUND', 'Client not found');
  throw invalidReference('client', 'client_id', clientId);
}

/** The client's root folder (made on first need); the client must be locked. */
export async function ensureRoot(ctx: Ctx, clientId: number, rows?: repo.FolderRow[]): Promise<repo.FolderRow> {
  const all = rows ?? (await repo.clientFolders(ctx, clientId));
  const root = all.find((row) => row.parent_id === null);
  if (root) return root;
  const row = {
    id: await repo.insertFolder(ctx, clientId, null, ROOT_NAME),
    parent_id: null,
    name: ROOT_NAME,
    drive_path: null,
  };
  all.push(row);
  return row;
}

function depthOf(rows: repo.FolderRow[], id: number): number {
  const byId = new Map(rows.map((row) => [row.id, row]));
  let depth = 0;
  for (let row = byId.get(id); row?.parent_id; row = byId.get(row.parent_id)) depth++;
  return depth;
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export async function createFolder(ctx: Ctx, body: FolderCreateBody): Promise<FolderRecord> {
  return inTransaction(ctx, async (tx) => {
    await lockClient(tx, body.client_id, 'reference');
    const rows = await repo.clientFolders(tx, body.client_id);
    const parent =
      body.parent_id === undefined
        ? await ensureRoot(tx, body.client_id, rows)
        : rows.find((r) => r.id === body.parent_id);
    if (!parent)
      throw new AppError('INVALID_PARENT', `parent_id ${body.parent_id} is not a folder of client ${body.client_id}`, {
        field: 'parent_id',
        value: body.parent_id,
      });
    if (depthOf(rows, parent.id) >= MAX_DEPTH)
      throw domainValidation('FOLDER_TOO_DEEP', `Folders nest at most ${MAX_DEPTH} levels below the root folder`, {
        field: 'parent_id',
      });
    if (rows.some((r) => r.parent_id === parent.id && sameName(r.name, body.name)))
      throw domainValidation('FOLDER_EXISTS', `The parent folder already has a folder named "${body.name}"`, {
        field: 'name',
      });
    return getFolder(tx, await repo.insertFolder(tx, body.client_id, parent.id, body.name));
  });
}

/** Adds the template's folders that the client's tree lacks (matched by name per level); nothing is removed. */
export async function applyTemplate(ctx: Ctx, clientId: number, nodes: TemplateNode[], rows: repo.FolderRow[]) {
  const root = await ensureRoot(ctx, clientId, rows);
  const queue: Array<{ parentId: number; nodes: TemplateNode[] }> = [{ parentId: root.id, nodes }];
  for (let item = queue.shift(); item; item = queue.shift()) {
    for (const node of item.nodes) {
      let row = rows.find((r) => r.parent_id === item!.parentId && sameName(r.name, node.name));
      if (!row) {
        row = {
          id: await repo.insertFolder(ctx, clientId, item.parentId, node.name),
          parent_id: item.parentId,
          name: node.name,
          drive_path: null,
        };
        rows.push(row);
      }
      if (node.children?.length) queue.push({ parentId: row.id, nodes: node.children });
    }
  }
}

function buildTree(rows: repo.FolderRow[]): TreeNode | null {
  const nodes = new Map<number, TreeNode>(
    rows.map((r) => [r.id, { id: r.id, name: r.name, drive_path: r.drive_path, children: [] }]),
  );
  let root: TreeNode | null = null;
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    if (row.parent_id === null) root = node;
    else nodes.get(row.parent_id)?.children.push(node);
  }
  for (const node of nodes.values()) node.children.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
  return root;
}

export async function readTree(ctx: Ctx, clientId: number): Promise<FolderTreeRecord> {
  const rows = await repo.clientFolders(ctx, clientId);
  return { client_id: clientId, folder_template_id: await repo.assignedTemplate(ctx, clientId), root: buildTree(rows) };
}

export async function getFolderTree(ctx: Ctx, clientId: number): Promise<FolderTreeRecord> {
  if (!(await clientSeen(ctx, clientId))) throw new AppError('NOT_FOUND', 'Client not found');
  return readTree(ctx, clientId);
}

/** Records the client's template and adds its folders to the client's tree; null only drops the assignment. */
export async function setFolderTemplate(
  ctx: Ctx,
  clientId: number,
  body: FolderTemplateAssignBody,
): Promise<FolderTreeRecord> {
  return inTransaction(ctx, async (tx) => {
    await lockClient(tx, clientId, 'path');
    const templateId = body.folder_template_id ?? null;
    if (templateId !== null) {
      const template = await repo.findFolderTemplate(tx, templateId);
      if (!template)
        throw domainValidation(
          'INVALID_FOLDER_TEMPLATE',
          `folder_template_id ${templateId} does not name a folder template of this company`,
          {
            field: 'folder_template_id',
            value: templateId,
          },
        );
      await applyTemplate(tx, clientId, template.folders, await repo.clientFolders(tx, clientId));
    }
    await repo.assignTemplate(tx, clientId, templateId);
    return readTree(tx, clientId);
  });
}
