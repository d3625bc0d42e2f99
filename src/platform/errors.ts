/**
 * The error catalogue: the only place a code gets its HTTP status. Services throw with `fail()`,
 * routes list the codes they answer by name, and the OpenAPI document groups them by the status
 * read from here, so what is thrown and what is documented cannot drift apart.
 * Codes the spec names for resources not built yet are listed too, so new modules only use them.
 */
export const ERRORS = {
  // 400
  MISSING_COMPANY: 400,
  INVALID_COMPANY: 400,
  VALIDATION_ERROR: 400,
  INVALID_CURSOR: 400,
  INVALID_PARENT: 400,
  UNKNOWN_FILTER_FIELD: 400,
  UNKNOWN_OPERATOR: 400,
  UNSUPPORTED_TYPE: 400,
  FOLDER_PROVISION_FAILED: 400,
  INVALID_CLIENT: 400,
  INVALID_PERSON: 400,
  INVALID_PROJECT: 400,
  INVALID_PROJECT_TYPE: 400,
  INVALID_TASK: 400,
  INVALID_CONTACT: 400,
  INVALID_TOPIC: 400,
  INVALID_PRODUCT: 400,
  INVALID_CONTRACT: 400,
  INVALID_INVOICE: 400,
  INVALID_TAX: 400,
  INVALID_SELLER: 400,
  INVALID_SUPPLIER: 400,
  INVALID_TEAM: 400,
  INVALID_ROLE: 400,
  INVALID_WORKFLOW_ROLE: 400,
  INVALID_CONTENT_TEMPLATE: 400,
  NO_RECIPIENTS: 400,
  INVALID_SUPPLIER_TYPE: 400,
  INVALID_ARTICLE: 400,
  INVALID_RESOURCE: 400,
  INVALID_BILLING_PROJECT: 400,
  INVALID_TOKEN: 400,
  // 401
  MISSING_AUTH: 401,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  // 403
  FORBIDDEN: 403,
  FINANCIAL_SCOPE_REQUIRED: 403,
  SUBSCRIPTION_READ_ONLY: 403,
  READ_ONLY: 403,
  CUSTOM_FIELD_READ_ONLY: 403,
  CUSTOM_FIELD_NOT_DELETABLE: 403,
  PRODUCT_FIELD_READ_ONLY: 403,
  HTTPS_REQUIRED: 403,
  PERSONAL_KEY_CANNOT_MANAGE_KEYS: 403,
  PLAN_UPGRADE_REQUIRED: 403,
  MANAGEMENT_UI_ONLY: 403,
  CSRF_REJECTED: 403,
  // 404
  NOT_FOUND: 404,
  // 409
  TIMER_ALREADY_RUNNING: 409,
  INVOICE_NOT_SENDABLE: 409,
  INVOICE_NOT_PAYABLE: 409,
  INVOICE_NOT_CREDITABLE: 409,
  RECLAIM_UNDO_NOT_SUPPORTED: 409,
  RECLAIM_NOT_UNDOABLE: 409,
  CALENDAR_APPROVAL_UI_ONLY: 409,
  ROLE_IN_USE: 409,
  PRODUCT_IN_USE: 409,
  GROUP_IN_USE: 409,
  CUSTOM_FIELD_OPTION_IN_USE: 409,
  IDEMPOTENCY_CONFLICT: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  ATTACHMENT_PROCESSING: 409,
  DRIVE_NOT_CONNECTED: 409,
  PARTIAL_REPARENT_REFUSED: 409,
  DELIVERY_IN_PROGRESS: 409,
  CLIENT_MEMBER_EXISTS: 409,
  MONITOR_EXISTS: 409,
  CUSTOM_FIELD_EXISTS: 409,
  PRICE_EXISTS: 409,
  LAST_PRICE_REQUIRED: 409,
  CONTRACT_LOCKED: 409,
  TIME_ENTRY_LOCKED: 409,
  INVALID_STATUS_TRANSITION: 409,
  STATUS_TRANSITION_NOT_SUPPORTED: 409,
  TASK_RELATION_EXISTS: 409,
  TASK_RELATION_CYCLE: 409,
  KEY_NOT_ROTATABLE: 409,
  WEBHOOK_LIMIT_REACHED: 409,
  PRODUCT_FIELD_IN_USE: 409,
  PRODUCT_FIELD_EXISTS: 409,
  LAST_OWNER: 409,
  // 412, 413, 415, 422, 428, 429
  STALE_WRITE: 412,
  PAYLOAD_TOO_LARGE: 413,
  FILE_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNSUPPORTED_MIME: 415,
  UNSUPPORTED_EXTENSION: 415,
  BLOCKED_EXTENSION: 415,
  MIME_MISMATCH: 415,
  RANGE_NOT_SATISFIABLE: 416,
  INVALID_FILTER_VALUE: 422,
  CONTRACT_ROWS_REJECTED: 422,
  CREDIT_NOTE_ROWS_REJECTED: 422,
  EINVOICE_DATA_MISSING: 422,
  PRECONDITION_REQUIRED: 428,
  RATE_LIMIT_EXCEEDED: 429,
  // 500, 503
  INTERNAL_ERROR: 500,
  WEBHOOKS_COMING_SOON: 503,
  QUERY_TIMEOUT: 503,
  DATABASE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERRORS;

export const statusOf = (code: ErrorCode): number => ERRORS[code];

/** The one error type services throw; the error handler turns it into the spec's body. */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>, headers?: Record<string, string>) {
    super(message);
    this.status = ERRORS[code];
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

/** Throws the catalogue's error: `fail('ROLE_IN_USE', 'Role 3 is assigned to tasks')`. */
export function fail(
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  headers?: Record<string, string>,
): never {
  throw new AppError(code, message, details, headers);
}

export const notFound = (what = 'Record') => new AppError('NOT_FOUND', `${what} not found`);

type ReferenceCode = Extract<ErrorCode, `INVALID_${string}`>;

/** A referenced id that is absent, deleted or another tenant's: 400 INVALID_<ENTITY>. */
export function invalidReference(entity: string, field: string, id: unknown): AppError {
  const code = `INVALID_${entity.toUpperCase()}` as ReferenceCode;
  if (!(code in ERRORS)) throw new Error(`${code} is not in the error catalogue`);
  return new AppError(code, `${field} ${String(id)} does not name a ${entity.toLowerCase()} of this company`, {
    field,
    value: id,
  });
}

/** A domain rule that the spec files under VALIDATION_ERROR with its own reason (INVALID_GROUP, INVALID_DATE_RANGE...). */
export const domainValidation = (reason: string, message: string, details: Record<string, unknown> = {}) =>
  new AppError('VALIDATION_ERROR', message, { reason, ...details });
