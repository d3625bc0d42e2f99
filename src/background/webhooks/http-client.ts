import http from 'node:http';
import https from 'node:https';
import ipaddr from 'ipaddr.js';
import type { Target } from '../../platform/ssrf.ts';
import type { DeliveryRequest } from '../../modules/webhooks/index.ts';

/** The delivery log keeps this much of an answer. */
export const RESPONSE_TEXT_LIMIT = 2000;
// Enough bytes for 2000 characters of any UTF-8 text; the rest of the answer is never read.
const RESPONSE_BYTE_LIMIT = RESPONSE_TEXT_LIMIT * 4;

export type SendResult =
  | { kind: 'response'; status: number; text: string; durationMs: number }
  | { kind: 'error'; reason: string; durationMs: number }
  | { kind: 'aborted'; durationMs: number };

const clip = (text: string) => Array.from(text).slice(0, RESPONSE_TEXT_LIMIT).join('');

function describe(error: NodeJS.ErrnoException): string {
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  if (error.code === 'ECONNRESET') return 'connection reset';
  if (error.code === 'EHOSTUNREACH' || error.code === 'ENETUNREACH') return 'host unreachable';
  if (error.code?.startsWith('ERR_TLS') || error.code?.includes('CERT')) return `TLS error (${error.code})`;
  return error.code ? `${error.message} (${error.code})` : error.message;
}

/**
 * One POST to the validated address. The socket goes to `target.address` (host name only in
 * Host and TLS SNI/certificate check), redirects are answers like any other (never followed),
 * and the whole exchange has `timeoutMs`. A shutdown `signal` aborts without a verdict.
 */
export function send(
  target: Target,
  request: DeliveryRequest,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const tls = target.url.protocol === 'https:';
  const hostname = target.url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      req.destroy();
      resolve(result);
    };
    const onAbort = () => finish({ kind: 'aborted', durationMs: elapsed() });
    const req = (tls ? https : http).request({
      host: target.address,
      family: target.family,
      port: target.port,
      method: 'POST',
      path: `${target.url.pathname}${target.url.search}`,
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
      agent: false,
      // SNI must be a name, never an address literal; the certificate is checked against the host name.
      ...(tls && !ipaddr.isValid(hostname) ? { servername: hostname } : {}),
    });
    const timer = setTimeout(
      () =>
        finish({
          kind: 'error',
          reason: `timeout: no answer within ${options.timeoutMs / 1000} s`,
          durationMs: elapsed(),
        }),
      options.timeoutMs,
    );
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => finish({ kind: 'error', reason: describe(error), durationMs: elapsed() }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      const done = () =>
        finish({
          kind: 'response',
          status: res.statusCode ?? 0,
          text: clip(Buffer.concat(chunks).toString('utf8')),
          durationMs: elapsed(),
        });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        bytes += chunk.length;
        if (bytes >= RESPONSE_BYTE_LIMIT) done();
      });
      res.on('end', done);
      res.on('error', done);
    });
    req.end(request.body);
  });
}
