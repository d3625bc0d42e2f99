/** The one error type services throw; the error handler turns it into the spec's body. */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>, headers?: Record<string, string>) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

export const notFound = (what = 'Record') => new AppError(404, 'NOT_FOUND', `${what} not found`);

/** A referenced id that is absent, deleted or another tenant's: 400 INVALID_<ENTITY>. */
export const invalidReference = (entity: string, field: string, id: unknown) =>
  new AppError(400, `INVALID_${entity.toUpperCase()}`, `${field} ${String(id)} does not name a ${entity.toLowerCase()} of this company`, { field, value: id });

/** A domain rule that the spec files under VALIDATION_ERROR with its own reason (INVALID_GROUP, INVALID_DATE_RANGE...). */
export const domainValidation = (reason: string, message: string, details: Record<string, unknown> = {}) =>
  new AppError(400, 'VALIDATION_ERROR', message, { reason, ...details });

export const conflict = (code: string, message: string, details?: Record<string, unknown>) => new AppError(409, code, message, details);
