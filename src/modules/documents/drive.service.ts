import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { V3_PREFIX } from '../../platform/http.ts';
import { clientDrivePath, type DriveProvider } from './drive.ts';
import type { DriveFolderRecord } from './folders.schemas.ts';
import * as repo from './folders.repository.ts';
import { applyTemplate, ensureRoot, lockClient } from './folders.service.ts';

/** Each folder's place in the drive: the root is the client's folder, every other one is its parent's plus its name. */
function drivePaths(clientId: number, rows: repo.FolderRow[]): Map<number, string> {
  const paths = new Map<number, string>();
  // Rows come parents first (ids grow with creation), so a parent's path is known before its children's.
  for (const row of rows) {
    if (row.parent_id === null) paths.set(row.id, clientDrivePath(clientId));
    else {
      const parent = paths.get(row.parent_id);
      if (parent !== undefined) paths.set(row.id, `${parent}/${row.name}`);
    }
  }
  return paths;
}

/**
 * POST /clients/{id}/documents-folder: makes the client's folder tree (its template's folders added first) in the
 * company's drive and records where each folder went. Running it again adds what is missing and answers
 * `skipped: true`, since the client's folder was already there. A provider failure rolls the records back.
 */
export async function provisionDocumentsFolder(
  ctx: Ctx,
  clientId: number,
  drive: (companyId: string) => DriveProvider,
): Promise<DriveFolderRecord> {
  return inTransaction(ctx, async (tx) => {
    await lockClient(tx, clientId, 'path');
    if (ctx.company.features.drive !== true)
      throw new AppError(
        'DRIVE_NOT_CONNECTED',
        'No document drive is connected for this company; switch the drive feature on first',
      );
    const templateId = await repo.assignedTemplate(tx, clientId);
    const template = templateId === null ? undefined : await repo.findFolderTemplate(tx, templateId);
    const before = await repo.clientFolders(tx, clientId);
    if (template) await applyTemplate(tx, clientId, template.folders, before);
    const root = await ensureRoot(tx, clientId, before);
    const rows = await repo.clientFolders(tx, clientId);
    const paths = drivePaths(clientId, rows);
    const provider = drive(tx.companyId);
    const rootPath = paths.get(root.id)!;
    const skipped = await provider.exists(rootPath);
    await provider.createFolders([...paths.values()]);
    for (const row of rows) {
      const drivePath = paths.get(row.id);
      if (drivePath !== undefined && row.drive_path !== drivePath) await repo.setDrivePath(tx, row.id, drivePath);
    }
    return { folder_id: root.id, folder_url: `${V3_PREFIX}/folders/${root.id}`, path: rootPath, skipped };
  });
}
