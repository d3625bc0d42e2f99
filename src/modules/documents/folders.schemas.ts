import { Type, type Static, type TSchema } from 'typebox';
import { Id, Name, Nullable, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';

/** Bounds of a template's tree: levels below the client's root folder, and folders in all. */
export const TEMPLATE_MAX_DEPTH = 4;
export const TEMPLATE_MAX_FOLDERS = 200;

/**
 * A folder name is also a directory name in the drive: no path separators, no control characters, not
 * `.` or `..`, so a name can never point outside its parent.
 */
export const FolderName = Type.String({
  minLength: 1,
  maxLength: 120,
  pattern: '^(?!\\.{1,2}$)(?! )(?!.* $)[^/\\\\\\u0000-\\u001f\\u007f]+$',
  description: 'Folder name, 1-120 characters; no / or \\, control characters, leading/trailing spaces, . or ..',
});

/** One level of a template tree; built level by level so the schema itself bounds the depth. */
function templateLevel(depth: number): TSchema {
  const fields: Record<string, TSchema> = { name: FolderName };
  if (depth > 1)
    fields.children = Type.Optional(Type.Array(templateLevel(depth - 1), { maxItems: 50, description: 'Subfolders' }));
  return Type.Object(fields, { additionalProperties: false });
}

export interface TemplateNode {
  name: string;
  children?: TemplateNode[];
}

const TemplateFolders = Type.Array(templateLevel(TEMPLATE_MAX_DEPTH), {
  maxItems: 50,
  description: `Folder tree made under the client's root folder: up to ${TEMPLATE_MAX_DEPTH} levels, ${TEMPLATE_MAX_FOLDERS} folders`,
});

export const FolderTemplate = Type.Object(
  {
    id: Type.Integer(),
    name: Name('Template name, 1-255 characters'),
    folders: TemplateFolders,
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'FolderTemplate' },
);
export type FolderTemplateRecord = Omit<Static<typeof FolderTemplate>, 'folders'> & { folders: TemplateNode[] };

export const FolderTemplateCreate = Type.Object(
  { name: Name('Template name, 1-255 characters'), folders: TemplateFolders },
  { additionalProperties: false, title: 'FolderTemplateCreate' },
);
export type FolderTemplateCreateBody = { name: string; folders: TemplateNode[] };

export const FOLDER_TEMPLATE_LIST_OPTIONS = {
  sortable: { id: 'ft.id', name: 'ft.name', created_at: 'ft.created_at', updated_at: 'ft.updated_at' },
  defaultSort: 'id',
};
export const FOLDER_TEMPLATE_FILTERS = ['q'] as const;
export const FolderTemplateListQuery = listQuery(
  { q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })) },
  FOLDER_TEMPLATE_LIST_OPTIONS,
);
export type FolderTemplateListParams = Static<typeof FolderTemplateListQuery>;

export const Folder = Type.Object(
  {
    id: Type.Integer(),
    client_id: Type.Integer(),
    parent_id: Nullable(Type.Integer({ description: "null for the client's root folder" })),
    name: Type.String(),
    path: Type.String({ description: 'Names from the root folder down, joined by /' }),
    drive_path: Nullable(Type.String({ description: 'Where the drive holds it; null until provisioned' })),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Folder' },
);
export type FolderRecord = Static<typeof Folder>;

export const FolderCreate = Type.Object(
  {
    client_id: Id('Client the folder belongs to'),
    parent_id: Type.Optional(Id("Parent folder of the same client; omitted: the client's root folder")),
    name: FolderName,
  },
  { additionalProperties: false, title: 'FolderCreate' },
);
export type FolderCreateBody = Static<typeof FolderCreate>;

export const FOLDER_LIST_OPTIONS = {
  sortable: { id: 'f.id', name: 'f.name', created_at: 'f.created_at' },
  defaultSort: 'id',
};
export const FOLDER_FILTERS = ['client_id', 'parent_id', 'q'] as const;
export const FolderListQuery = listQuery(
  {
    client_id: Type.Optional(Id('Folders of this client')),
    parent_id: Type.Optional(Id('Direct subfolders of this folder')),
    q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
  },
  FOLDER_LIST_OPTIONS,
);
export type FolderListParams = Static<typeof FolderListQuery>;

/** A node of GET /clients/{id}/folder-tree: the folder and its subfolders, depth-first by name. */
export interface TreeNode {
  id: number;
  name: string;
  drive_path: string | null;
  children: TreeNode[];
}
const TreeNodeSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  drive_path: Nullable(Type.String()),
  children: Type.Array(Type.Unknown({ description: 'Subfolders, each of this same shape' })),
});

export const FolderTree = Type.Object(
  {
    client_id: Type.Integer(),
    folder_template_id: Nullable(Type.Integer({ description: 'Template assigned to the client, if any' })),
    root: Nullable(TreeNodeSchema),
  },
  { title: 'FolderTree' },
);
export interface FolderTreeRecord {
  client_id: number;
  folder_template_id: number | null;
  root: TreeNode | null;
}

export const FolderTemplateAssign = Type.Object(
  {
    folder_template_id: Type.Optional(
      Nullable(Id('Template to apply; null or absent removes the assignment (the folders stay)')),
    ),
  },
  { additionalProperties: false, title: 'FolderTemplateAssign' },
);
export type FolderTemplateAssignBody = Static<typeof FolderTemplateAssign>;

export const DriveFolder = Type.Object(
  {
    folder_id: Type.Integer({ description: "The client's root folder record" }),
    folder_url: Type.String({ description: 'API address of that folder record' }),
    path: Type.String({ description: "The folder's path inside the drive" }),
    skipped: Type.Boolean({ description: 'true when the folder already existed in the drive' }),
  },
  { title: 'DriveFolder' },
);
export type DriveFolderRecord = Static<typeof DriveFolder>;
