// The API's errors in words. The service answers {error: {code, message, details}}; a validation error names
// its fields in details.errors[].field (`body.name`, `name`) or details.field, which the forms show beside
// the control of that name.
import { ApiError, NetworkError } from '@service-api/sdk/browser';
import type { MessageKey } from '../i18n/i18n.tsx';

type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export function describeError(error: unknown, t: Translate): { message: string; code?: string } {
  if (error instanceof ApiError) {
    const body = error.body as { error?: { message?: string } } | undefined;
    return { message: body?.error?.message ?? error.message, code: error.code };
  }
  if (error instanceof NetworkError || error instanceof TypeError) return { message: t('app.networkError') };
  return { message: error instanceof Error ? error.message : String(error) };
}

/** The field a validation problem names, without its location prefix (`body.address_city` → `address_city`). */
function fieldName(path: unknown): string | undefined {
  if (typeof path !== 'string' || path === '') return undefined;
  return path.replace(/^(body|query|params)\./, '').split(/[.[]/)[0];
}

/** Errors by field name, for <Form validationErrors>; empty when the error names no field. */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !error.details) return {};
  const out: Record<string, string> = {};
  const list = error.details.errors;
  if (Array.isArray(list))
    for (const item of list as Array<{ field?: unknown; message?: unknown }>) {
      const name = fieldName(item.field);
      if (name && !out[name]) out[name] = `${name} ${String(item.message ?? '')}`.trim();
    }
  const single = fieldName(error.details.field);
  const message = (error.body as { error?: { message?: string } } | undefined)?.error?.message;
  if (single && !out[single] && message) out[single] = message;
  return out;
}

export const isApiError = (error: unknown, code?: string): error is ApiError =>
  error instanceof ApiError && (code === undefined || error.code === code);

/**
 * A field's onChange that also drops the API's last complaint: react-aria keeps blocking a form's submit while a
 * server error for one of its fields is passed in, and an edit is the person's answer to it.
 */
export function clearing<T>(mutation: { error: unknown; reset(): void }, set: (value: T) => void): (value: T) => void {
  return (value) => {
    if (mutation.error) mutation.reset();
    set(value);
  };
}
