// Every HTTP call of the command line goes through the SDK's transport (headers, idempotency keys, retries).
import { send, type SendInit, type TransportOptions } from '../../sdk/src/transport.ts';
import type { Profile } from './config.ts';

const USER_AGENT = 'svc-cli/3.0.0';

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

export function transportOf(profile: Profile): TransportOptions {
  // Fewer retries than a long-running program: a person at a terminal would rather see the failure soon.
  return { baseUrl: profile.url, company: profile.company, apiKey: profile.key, userAgent: USER_AGENT, maxRetries: 2 };
}

/** One call; a JSON answer is parsed, any other kept as text. Throws ApiError or NetworkError. */
export async function call(profile: Profile, method: string, path: string, init?: SendInit): Promise<Answer> {
  const response = await send(transportOf(profile), method, path, init);
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json');
  return {
    status: response.status,
    headers: response.headers,
    body: text && json ? JSON.parse(text) : text || undefined,
  };
}

/** A binary answer (a PDF): the bytes as they came. */
export async function download(profile: Profile, path: string, init?: SendInit) {
  const response = await send(transportOf(profile), 'GET', path, { ...init, headers: { Accept: '*/*' } });
  return { headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The envelope's warnings go to stderr, so stdout stays what a script parses. */
export function printWarnings(answer: Answer): void {
  const warnings = (answer.body as { warnings?: Array<{ code?: string; message?: string }> } | undefined)?.warnings;
  for (const w of warnings ?? []) console.error(`warning: ${w.code ?? ''}: ${w.message ?? ''}`);
}
