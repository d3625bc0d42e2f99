import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../platform/errors.ts';

/**
 * The local drive provider: a company's drive is a directory under the service's data directory
 * (`<dataDir>/drive/<company id>/`), and a client's documents folder is `clients/<client id>` in it, with one
 * subdirectory per folder record. Another provider (a cloud drive) would implement the same two calls.
 */
export interface DriveProvider {
  /** Whether the folder exists in the drive already. */
  exists(relative: string): Promise<boolean>;
  /** Creates the folders (parents first; existing ones are left as they are). */
  createFolders(relatives: readonly string[]): Promise<void>;
}

export const clientDrivePath = (clientId: number) => `clients/${clientId}`;

/** Every provider failure is the spec's FOLDER_PROVISION_FAILED; the cause is logged, not shown. */
function provisionFailed(relative: string, error: unknown): AppError {
  const code = (error as NodeJS.ErrnoException)?.code ?? 'unknown';
  return new AppError('FOLDER_PROVISION_FAILED', `The drive could not create the folder "${relative}" (${code})`, {
    path: relative,
    reason: code,
  });
}

export function localDrive(dataDir: string, companyId: string): DriveProvider {
  const base = path.resolve(dataDir, 'drive', companyId);
  // Names are validated (no separators, no . or ..); this check keeps a future bug from writing elsewhere.
  const absolute = (relative: string) => {
    const full = path.resolve(base, relative);
    if (!full.startsWith(base + path.sep)) throw provisionFailed(relative, { code: 'EPATH' });
    return full;
  };
  return {
    async exists(relative) {
      try {
        return (await stat(absolute(relative))).isDirectory();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw provisionFailed(relative, error);
      }
    },
    async createFolders(relatives) {
      for (const relative of relatives) {
        try {
          await mkdir(absolute(relative), { recursive: true, mode: 0o750 });
        } catch (error) {
          throw error instanceof AppError ? error : provisionFailed(relative, error);
        }
      }
    },
  };
}
