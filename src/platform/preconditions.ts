import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/**
 * ETags are the record's updated_at in quotes ("2026-11-22T06:05:59.123Z"). If-Match accepts that
 * ETag, the bare updated_at value, a weak W/ form, or * (any current version) where If-Match is optional;
 * where it is required only a concrete version will do (decision 0049).
 */
export function etagOf(updatedAt: string): string {
  return `"${updatedAt}"`;
}

export type Precondition = { any: true } | { any: false; version: string };

export function readIfMatch(request: FastifyRequest): Precondition | undefined {
  const raw = request.headers['if-match'];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = raw.trim();
  if (value === '*') return { any: true };
  const unquoted = value.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
  const time = Date.parse(unquoted);
  if (Number.isNaN(time))
    throw new AppError('STALE_WRITE', 'If-Match does not name a version of this record; re-read it and retry');
  return { any: false, version: new Date(time).toISOString() };
}

/**
 * 428 when absent; call before any write that the spec puts behind If-Match. `*` proves no read of the
 * record (it matches whatever is there, so it cannot prevent a lost update): it answers as if absent.
 */
export function requireIfMatch(request: FastifyRequest): Precondition {
  const precondition = readIfMatch(request);
  if (!precondition)
    throw new AppError(
      'PRECONDITION_REQUIRED',
      "This write needs an If-Match header carrying the record's current ETag (its updated_at)",
    );
  if (precondition.any)
    throw new AppError(
      'PRECONDITION_REQUIRED',
      "If-Match: * names no version; this write needs the record's current ETag (its updated_at)",
      { reason: 'WILDCARD_NOT_ACCEPTED' },
    );
  return precondition;
}

/** 412 when the record changed since the caller read it. */
export function assertFresh(precondition: Precondition, currentUpdatedAt: string): void {
  if (precondition.any || precondition.version === currentUpdatedAt) return;
  throw new AppError('STALE_WRITE', 'The record changed since it was read; re-read it and retry', {
    current_etag: etagOf(currentUpdatedAt),
  });
}
