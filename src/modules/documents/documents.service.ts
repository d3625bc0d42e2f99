import type { DocumentListParams } from './documents.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { domainValidation } from '../../platform/errors.ts';
import { mutate, mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { assertReferenceList } from '../../platform/references.ts';
import type { DocumentCreateBody, DocumentRecord, DocumentUpdateBody } from './documents.schemas.ts';
import * as repo from './documents.repository.ts';
import { clientFolders } from './folders.repository.ts';
import { lockClient } from './folders.service.ts';

const target = { what: 'Document', lock: repo.documents.lock, read: repo.findDocument };

export const listDocuments = (ctx: Ctx, params: DocumentListParams) => repo.listDocuments(ctx, params);

export async function getDocument(ctx: Ctx, id: number): Promise<DocumentRecord> {
  return orNotFound(await repo.findDocument(ctx, id), 'Document');
}

/** A document is filed only in a live folder of its own client. */
async function checkFolder(ctx: Ctx, clientId: number, folderId: number | null | undefined): Promise<void> {
  if (folderId === null || folderId === undefined) return;
  if ((await clientFolders(ctx, clientId)).some((f) => f.id === folderId)) return;
  throw domainValidation('INVALID_FOLDER', `folder_id ${folderId} is not a folder of client ${clientId}`, {
    field: 'folder_id',
    value: folderId,
  });
}

/** The attachment must be a live attachment of this company (reason INVALID_ATTACHMENT). */
const checkAttachment = (ctx: Ctx, id: number | null | undefined) =>
  assertReferenceList(ctx, 'attachments', 'INVALID_ATTACHMENT', 'attachment_id', id ? [id] : undefined);

export async function createDocument(ctx: Ctx, body: DocumentCreateBody): Promise<DocumentRecord> {
  return inTransaction(ctx, async (tx) => {
    await lockClient(tx, body.client_id, 'reference');
    await checkFolder(tx, body.client_id, body.folder_id);
    await checkAttachment(tx, body.attachment_id);
    const id = await repo.documents.insert(tx, {
      client_id: body.client_id,
      folder_id: body.folder_id ?? null,
      name: body.name,
      attachment_id: body.attachment_id ?? null,
      text_content: body.text_content ?? null,
    });
    return getDocument(tx, id);
  });
}

export const updateDocument = (ctx: Ctx, id: number, body: DocumentUpdateBody) =>
  mutate(ctx, target, id, body, async (tx, locked) => {
    await checkFolder(tx, (locked as { client_id: number }).client_id, body.folder_id);
    await checkAttachment(tx, body.attachment_id);
    await repo.documents.update(tx, id, body);
  });

export const deleteDocument = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, target, id, (tx) => repo.documents.softDelete(tx, id));
