import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { AppError } from './errors.ts';
import { describeErrors } from './validation.ts';
import { NUL_KEYWORD } from './input-guards.ts';

const send = (reply: FastifyReply, status: number, code: string, message: string, details?: Record<string, unknown>) =>
  reply.code(status).send({ error: details ? { code, message, details } : { code, message } });

function queryError(request: FastifyRequest, errors: ErrorObject[]): AppError {
  const problems = describeErrors(errors, 'query');
  const first = errors[0]!;
  if (first.keyword === 'additionalProperties') {
    const field = (first.params as { additionalProperty: string }).additionalProperty;
    return new AppError('UNKNOWN_FILTER_FIELD', `Unknown query parameter: ${field}`, { field });
  }
  const field = problems[0]!.field.split('.')[0]!;
  // U+0000 is refused in every parameter alike, filter or not: the text cannot be stored or compared.
  if (request.routeOptions.config.filters?.includes(field) && first.keyword !== NUL_KEYWORD) {
    return new AppError('INVALID_FILTER_VALUE', `Filter ${field} ${problems[0]!.message}`, { field, errors: problems });
  }
  return new AppError('VALIDATION_ERROR', `Query parameter ${field} ${problems[0]!.message}`, { errors: problems });
}

function validationError(request: FastifyRequest, error: FastifyError): AppError {
  const errors = (error.validation ?? []) as ErrorObject[];
  const part = error.validationContext ?? 'body';
  if (part === 'querystring') return queryError(request, errors);
  const problems = describeErrors(errors, part);
  const where = part === 'params' ? 'Path parameter' : part === 'headers' ? 'Header' : 'Field';
  return new AppError(
    'VALIDATION_ERROR',
    `${where} ${problems[0]?.field ?? ''} ${problems[0]?.message ?? 'is invalid'}`.trim(),
    { errors: problems },
  );
}

/** Fastify's own client errors (bad JSON, wrong content type, oversized body) in the spec's error body. */
function frameworkError(error: FastifyError): AppError {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new AppError('PAYLOAD_TOO_LARGE', 'The request body is too large');
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Bodies must be JSON (Content-Type: application/json)');
  return new AppError(
    'VALIDATION_ERROR',
    error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'The JSON body is empty' : 'The request body is not valid JSON',
    { reason: error.code ?? 'BAD_REQUEST' },
  );
}

/** PostgreSQL's query_canceled: a statement cut at its statement_timeout (SVC_STATEMENT_TIMEOUT, decision 0046). */
const isStatementTimeout = (error: unknown) => (error as { code?: unknown } | null)?.code === '57014';

const queryTimeout = () =>
  new AppError(
    'QUERY_TIMEOUT',
    'The request needed more database time than the server allows and was stopped; nothing was changed. ' +
      'Ask for less (a shorter window, a narrower filter) or try again later',
  );

/**
 * No connection to be had (decision 0060): the pool's wait ran out, the server has no slot left (53300
 * too_many_connections) or is starting or stopping (57P03, 57P01), or it cannot be reached at all.
 */
export function connectionShortage(error: unknown): AppError | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const waited =
    message === 'timeout exceeded when trying to connect' ||
    message === 'Connection terminated due to connection timeout';
  const busy = waited || code === '53300';
  const down = code === '57P03' || code === '57P01' || code === 'ECONNREFUSED';
  if (!busy && !down) return undefined;
  return new AppError(
    'DATABASE_UNAVAILABLE',
    busy
      ? 'The service has no free database connection right now; nothing was changed. Try again shortly'
      : 'The database cannot be reached right now; nothing was changed. Try again shortly',
    undefined,
    { 'Retry-After': busy ? '1' : '5' },
  );
}

const clientGone = (request: FastifyRequest) => request.raw.destroyed || request.raw.socket?.destroyed === true;

/** A route answered an error code its declaration (route() in http.ts) does not list. */
export interface UndeclaredError {
  method: string;
  url: string;
  code: string;
}
export type UndeclaredErrorListener = (violation: UndeclaredError) => void;

/** Tests pass a listener so that a code missing from the OpenAPI document fails them; production passes none. */
function checkDeclared(request: FastifyRequest, code: string, listener?: UndeclaredErrorListener): void {
  const answers = request.routeOptions.config.answers;
  if (!listener || !answers || answers.includes(code)) return;
  listener({ method: request.method, url: request.routeOptions.url ?? request.url, code });
}

export function registerErrorHandling(app: FastifyInstance, onUndeclared?: UndeclaredErrorListener): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let appError: AppError;
    let shortage: AppError | undefined;
    if (error instanceof AppError) appError = error;
    else if (isStatementTimeout(error)) {
      request.log.warn({ err: error.message }, 'a statement reached its time-out');
      appError = queryTimeout();
    } else if ((shortage = connectionShortage(error))) {
      request.log.warn({ err: error.message }, 'no database connection for a request');
      appError = shortage;
    } else if (error.validation) appError = validationError(request, error);
    else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) appError = frameworkError(error);
    else if (clientGone(request)) {
      // The client left mid-request and its write was rolled back (request-transaction.ts): no one to answer, and
      // nothing for an operator to fix.
      request.log.info({ err: error.message }, 'the client went away before its answer; nothing was written');
      return send(reply, 500, 'INTERNAL_ERROR', 'The request was abandoned');
    } else {
      // Full detail goes to the log only; the caller learns nothing about internals.
      request.log.error({ err: error }, 'unhandled error');
      checkDeclared(request, 'INTERNAL_ERROR', onUndeclared);
      return send(reply, 500, 'INTERNAL_ERROR', 'An internal error occurred; quote the X-Request-Id when reporting it');
    }
    checkDeclared(request, appError.code, onUndeclared);
    if (appError.headers) reply.headers(appError.headers);
    return send(reply, appError.status, appError.code, appError.message, appError.details);
  });
  app.setNotFoundHandler((request, reply) =>
    send(reply, 404, 'NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`),
  );
}
