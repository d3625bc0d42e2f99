// Serves the web application (web/, built into dist/web by scripts/build.ts) at `/`, from the same process and
// origin as API v3 (docs/decisions/0052). Files under /assets/ carry a content hash in their names and are cached
// for good; every other path the application routes itself (/clients/12) gets index.html. The API, the operator
// API and the reference pages keep their own 404s. Every page answers with strict security headers: nothing runs
// that is inline or from another host, and no site may frame it.
import { existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': WEB_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

/**
 * Paths that are not the application's client-side routes: the service's own, and files (a name with a dot,
 * such as a stale /assets/index-1234.js), which must answer 404 rather than a page.
 */
const NOT_A_PAGE = /^\/(api|operator|metrics)(\/|$)|\.[^/]*$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** dist/web of this checkout, whether the service runs from its sources or from dist/ (both sit under the root). */
export function defaultWebDir(from = import.meta.dirname): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'dist', 'web');
}

function secure(request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(SECURITY_HEADERS);
  if (request.protocol === 'https') reply.header('Strict-Transport-Security', 'max-age=31536000');
}

/** The application's files, or, when it was not built, one page saying how to build it. */
export async function registerWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  const built = await access(path.join(webDir, 'index.html')).then(
    () => true,
    () => false,
  );
  if (!built) {
    app.get('/', async (request, reply) => {
      secure(request, reply);
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web application is not built: run `npm run build` (npm install does it), then restart.\n');
    });
    return;
  }
  await app.register(fastifyStatic, {
    root: webDir,
    prefix: '/',
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    decorateReply: true,
    setHeaders: (res, file) => {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
      const asset = file.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('Cache-Control', asset ? IMMUTABLE : 'no-cache');
    },
  });
  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (NOT_A_PAGE.test(request.url.split('?')[0]!)) return reply.callNotFound();
    secure(request, reply);
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  };
  app.get('/', page);
  app.get('/*', page);
}
