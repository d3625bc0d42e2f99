import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Config } from '../../config.ts';
import type { Ctx } from '../../platform/context.ts';
import { fail } from '../../platform/errors.ts';
import { storageFor, type ByteRange } from '../../platform/storage/index.ts';
import type { AttachmentRecord } from './attachments.schemas.ts';
import { getAttachment } from './attachments.service.ts';

/**
 * One range of the Range header (RFC 9110): `bytes=a-b`, `bytes=a-`, `bytes=-n`. Anything else (several ranges,
 * another unit, a malformed or backwards range) is ignored and the whole file is sent, as the RFC allows;
 * a range starting past the end is unsatisfiable.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = header === undefined ? null : /^bytes=(\d{0,20})-(\d{0,20})$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? Infinity : Number(match[2]);
  if (end < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/** RFC 6266: an ASCII fallback name, and the exact name as RFC 8187 UTF-8 in filename*. */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

const TEXTUAL = new Set(['text/plain', 'text/csv', 'application/json', 'application/xml', 'image/svg+xml']);

export interface Download {
  record: AttachmentRecord;
  range: ByteRange | undefined;
  stream: Readable;
}

/** The file of a ready attachment, whole or one range; 409 ATTACHMENT_PROCESSING until verification is done. */
export async function openDownload(ctx: Ctx, id: number, rangeHeader: string | undefined, config: Config) {
  const record = await getAttachment(ctx, id);
  if (record.status !== 'ready')
    fail(
      'ATTACHMENT_PROCESSING',
      record.status === 'processing'
        ? 'The file is still being processed; try again shortly'
        : 'The file failed its checks after upload and cannot be downloaded',
      { status: record.status },
      record.status === 'processing' ? { 'Retry-After': '1' } : undefined,
    );
  const range = parseRange(rangeHeader, record.size);
  if (range === 'unsatisfiable')
    fail(
      'RANGE_NOT_SATISFIABLE',
      `The file has ${record.size} bytes`,
      { size: record.size },
      {
        'Content-Range': `bytes */${record.size}`,
      },
    );
  const stream = await storageFor(config).get(record.sha256, range);
  return { record, range, stream } satisfies Download;
}

/**
 * Sends the bytes as a download only: never rendered by the browser as a page (attachment disposition, nosniff,
 * a sandboxing CSP), which also defuses scripts inside an SVG.
 */
export function sendDownload(reply: FastifyReply, { record, range, stream }: Download) {
  const type = TEXTUAL.has(record.content_type) ? `${record.content_type}; charset=utf-8` : record.content_type;
  reply
    .header('Content-Type', type)
    .header('Content-Disposition', contentDisposition(record.file_name))
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
    .header('Cache-Control', 'private, no-cache')
    .header('Accept-Ranges', 'bytes')
    .header('ETag', `"${record.sha256}"`);
  if (!range) return reply.code(200).header('Content-Length', record.size).send(stream);
  return reply
    .code(206)
    .header('Content-Range', `bytes ${range.start}-${range.end}/${record.size}`)
    .header('Content-Length', range.end - range.start + 1)
    .send(stream);
}
