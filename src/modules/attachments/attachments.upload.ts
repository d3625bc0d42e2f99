import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { AppError, fail } from '../../platform/errors.ts';
import type { BlobStore, StagedBlob } from '../../platform/storage/index.ts';
import { checkContent, Inspector, type Inspection } from './attachments.inspect.ts';
import { checkFileName, formatFor, MAX_FILE_BYTES, type Format } from './attachments.rules.ts';

/** A file read off the request, checked, and committed to the blob store under its SHA-256. */
export interface ReceivedFile {
  name: string;
  format: Format;
  size: number;
  sha256: string;
}

/** Multipart limits: one file, no other fields, and busboy itself stops one byte past the size limit. */
export const MULTIPART_LIMITS = {
  fileSize: MAX_FILE_BYTES + 1,
  files: 1,
  fields: 0,
  parts: 2,
  headerPairs: 20,
} as const;

const ONE_FILE = 'Send exactly one form field, named file, holding the file';

/** The parser's own errors, in the catalogue's words (a second file, a text field, a body cut short). */
function parserError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
    return new AppError('VALIDATION_ERROR', ONE_FILE, { field: 'file' });
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new AppError('FILE_TOO_LARGE', 'The file is larger than 150 MB', { max_bytes: MAX_FILE_BYTES });
  return new AppError('VALIDATION_ERROR', 'The multipart body is malformed or incomplete', {
    reason: code ?? 'BAD_MULTIPART',
  });
}

/** Streams one part through the inspector into a staged blob; on any failure the staged bytes are gone. */
async function stageFile(part: MultipartFile, store: BlobStore) {
  const name = checkFileName(part.filename);
  const { format } = formatFor(name, part.mimetype);
  const staged = await store.stage();
  const inspector = new Inspector(format);
  try {
    await pipeline(part.file, inspector, staged.stream);
    if (part.file.truncated) fail('FILE_TOO_LARGE', 'The file is larger than 150 MB', { max_bytes: MAX_FILE_BYTES });
  } catch (error) {
    await staged.discard();
    throw error;
  }
  return { name, format, staged, found: inspector.result() };
}

interface Staged {
  name: string;
  format: Format;
  staged: StagedBlob;
  found: Inspection;
}

/** Reads the form: exactly one part, a file named `file`. Checks by name and type come before any byte is read. */
async function readForm(request: FastifyRequest, store: BlobStore): Promise<Staged> {
  let staged: Staged | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file' || part.fieldname !== 'file' || staged)
        fail('VALIDATION_ERROR', ONE_FILE, { field: 'file' });
      staged = await stageFile(part, store);
    }
  } catch (error) {
    await staged?.staged.discard();
    throw parserError(error);
  }
  if (!staged) fail('VALIDATION_ERROR', ONE_FILE, { field: 'file' });
  return staged;
}

/**
 * Receives an upload: streams it to a staged blob while hashing and inspecting, checks the bytes, then commits
 * the blob under its SHA-256 (so the same bytes are stored once). Nothing of a refused or cut-off upload stays.
 */
export async function receiveFile(request: FastifyRequest, store: BlobStore): Promise<ReceivedFile> {
  if (!request.isMultipart())
    fail('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data with one field named file');
  const { name, format, staged, found } = await readForm(request, store);
  try {
    await checkContent(format, found);
    await staged.commit(found.sha256);
  } finally {
    await staged.discard();
  }
  return { name, format, size: found.size, sha256: found.sha256 };
}
