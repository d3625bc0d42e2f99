import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { ErrorCode } from '../../platform/errors.ts';
import { noContent, route, type HttpMethod, type RouteSpec } from '../../platform/http.ts';
import type { ModuleRouteOptions } from '../../platform/modules.ts';
import { limitAddress } from '../../platform/network.ts';
import { liveSession, type LiveSession } from '../../platform/session-auth.ts';
import {
  checkCsrf,
  checkRequestOrigin,
  clearedSessionCookie,
  sessionCookie,
} from '../../platform/session-credential.ts';
import type { Client, Issued, SessionEnv } from './sessions.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session a /auth/session* route acts on, resolved by the route's own onRequest hook. */
    liveSession?: LiveSession;
  }
}

export const tags = ['Web sessions'];
/** Codes every route here can answer: the HTTPS rule and the per-address ceiling come before it. */
export const EDGE: ErrorCode[] = ['HTTPS_REQUIRED', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR'];
const SIGNED_IN: ErrorCode[] = [...EDGE, 'MISSING_AUTH', 'UNAUTHORIZED'];
const SESSION_SECURITY = [{ session: [] }];

/**
 * What the session routes share: the pool and settings, the client's address, the hooks that check the request
 * before its body is read (answers carry a CSRF token or a cookie: never stored by a cache), and the replies that
 * set or clear the cookie.
 */
export function sessionKit(fastify: FastifyInstance, opts: ModuleRouteOptions) {
  const config = fastify.config;
  const env: SessionEnv = { db: opts.db, config };
  /** Login CSRF: the anonymous posts (sign-in, resets) come from this site or from nowhere. */
  const anonymous = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store');
    checkRequestOrigin(request, config.publicUrl);
  };
  /** The cookie's live session; a write also carries its CSRF token. */
  const signedIn = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store');
    const live = await liveSession(env, request, null);
    if (request.method !== 'GET' && request.method !== 'HEAD') checkCsrf(request, live.token, config.publicUrl);
    request.liveSession = live;
  };
  return {
    env,
    anonymous,
    client: (request: FastifyRequest): Client => ({
      ip: request.ip,
      address: limitAddress(config.trustProxy, request),
      userAgent: request.headers['user-agent'] ?? null,
    }),
    live: (request: FastifyRequest) => request.liveSession!,
    issue: (request: FastifyRequest, reply: FastifyReply, issued: Issued, status: number) =>
      reply
        .header('Set-Cookie', sessionCookie(request, issued.token, issued.maxAgeSeconds))
        .code(status)
        .send({ data: issued.view }),
    signedOut: (request: FastifyRequest, reply: FastifyReply) =>
      noContent(reply.header('Set-Cookie', clearedSessionCookie(request))),
    /** A route acting on the signed-in session: the cookie is its credential (and documented as such). */
    sessionRoute: <S extends FastifySchema, M extends HttpMethod>(
      method: M,
      url: string,
      spec: Omit<RouteSpec<S>, 'tags' | 'tier'>,
    ) => {
      const errors = [...SIGNED_IN, ...(spec.errors ?? [])];
      const declared = route(method, url, { ...spec, tags, tier: 'none', errors });
      return { ...declared, schema: { ...declared.schema, security: SESSION_SECURITY }, onRequest: signedIn };
    },
  };
}

export type SessionKit = ReturnType<typeof sessionKit>;
