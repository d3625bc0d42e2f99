// Exit codes and the one way a failure reaches the terminal: code, message and request id on stderr.
import { ApiError, NetworkError } from '../../sdk/src/transport.ts';

export const EXIT = { ok: 0, failed: 1, usage: 2, client: 4, server: 5, network: 6 } as const;

/** A failure found before any request (bad flags, no profile): exit 2 unless told otherwise. */
export class CliError extends Error {
  code: string;
  exitCode: number;
  details?: Record<string, unknown>;
  constructor(code: string, message: string, exitCode: number = EXIT.usage, details?: Record<string, unknown>) {
    super(message);
    this.code = code;
    this.exitCode = exitCode;
    this.details = details;
  }
}

export const usage = (message: string) => new CliError('USAGE', message);

/** Prints the error to stderr (as JSON when the output is JSON) and answers the exit code. */
export function reportError(error: unknown, json: boolean): number {
  const { body, exitCode } = describe(error);
  if (json) console.error(JSON.stringify({ error: body }));
  else {
    const field = typeof body.details?.field === 'string' ? ` (field ${body.details.field})` : '';
    const request = body.request_id ? `\n  request id: ${body.request_id}` : '';
    console.error(`error: ${body.code}: ${body.message}${field}${request}`);
  }
  return exitCode;
}

interface ErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  request_id?: string;
}

function describe(error: unknown): { body: ErrorBody; exitCode: number } {
  if (error instanceof CliError)
    return { body: { code: error.code, message: error.message, details: error.details }, exitCode: error.exitCode };
  if (error instanceof ApiError) {
    const sent = (error.body as { error?: { message?: string } } | undefined)?.error;
    return {
      body: {
        code: error.code,
        message: sent?.message ?? error.message,
        details: error.details,
        request_id: error.requestId,
      },
      exitCode: error.status >= 500 ? EXIT.server : EXIT.client,
    };
  }
  if (error instanceof NetworkError)
    return { body: { code: 'NETWORK', message: error.message }, exitCode: EXIT.network };
  return { body: { code: 'FAILED', message: (error as Error)?.message ?? String(error) }, exitCode: EXIT.failed };
}
