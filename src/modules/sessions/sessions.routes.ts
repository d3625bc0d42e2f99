import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ErrorCode } from '../../platform/errors.ts';
import { IdParam, noContent, route, Single, type HttpMethod, type RouteSpec } from '../../platform/http.ts';
import type { ModuleRouteOptions } from '../../platform/modules.ts';
import { limitAddress } from '../../platform/network.ts';
import { liveSession, type LiveSession } from '../../platform/session-auth.ts';
import {
  checkCsrf,
  checkRequestOrigin,
  clearedSessionCookie,
  sessionCookie,
} from '../../platform/session-credential.ts';
import {
  PasswordChange,
  PasswordResetAccepted,
  PasswordResetComplete,
  PasswordResetRequest,
  SessionListItem,
  SessionView,
  SignIn,
} from './sessions.schemas.ts';
import * as service from './sessions.service.ts';
import { completeReset, requestReset, settleResets } from './sessions.resets.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session a /auth/session* route acts on, resolved by the route's own onRequest hook. */
    liveSession?: LiveSession;
  }
}

const tags = ['Web sessions'];
/** Codes every route here can answer: the HTTPS rule and the per-address ceiling come before it. */
const EDGE: ErrorCode[] = ['HTTPS_REQUIRED', 'RATE_LIMIT_EXCEEDED', 'INTERNAL_ERROR'];
const SIGNED_IN: ErrorCode[] = [...EDGE, 'MISSING_AUTH', 'UNAUTHORIZED'];
const SESSION_SECURITY = [{ session: [] }];

/**
 * The web application's sign-in (docs/decisions/0051): no X-Service-Company and no API key. Routes that act on
 * a session find it from the cookie (and for writes check the CSRF token); the anonymous posts check Origin and
 * Sec-Fetch-Site (login CSRF). Answers carry a CSRF token or a cookie: never stored by a cache.
 */
export default async function sessionRoutes(fastify: FastifyInstance, opts: ModuleRouteOptions) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = fastify.config;
  // Reset mails handed on by requests finish before the pool they use is closed.
  fastify.addHook('onClose', async () => void (await settleResets()));
  const env: service.SessionEnv = { db: opts.db, config };
  const client = (request: FastifyRequest): service.Client => ({
    ip: request.ip,
    address: limitAddress(config.trustProxy, request),
    userAgent: request.headers['user-agent'] ?? null,
  });
  const anonymous = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store');
    checkRequestOrigin(request, config.publicUrl);
  };
  const signedIn = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store');
    const live = await liveSession({ db: opts.db, config }, request, null);
    if (request.method !== 'GET' && request.method !== 'HEAD') checkCsrf(request, live.token, config.publicUrl);
    request.liveSession = live;
  };
  const live = (request: FastifyRequest) => request.liveSession!;
  const issue = (request: FastifyRequest, reply: FastifyReply, issued: service.Issued, status: number) =>
    reply
      .header('Set-Cookie', sessionCookie(request, issued.token, issued.maxAgeSeconds))
      .code(status)
      .send({ data: issued.view });
  const signedOut = (request: FastifyRequest, reply: FastifyReply) =>
    noContent(reply.header('Set-Cookie', clearedSessionCookie(request)));

  /** A route acting on the signed-in session: the cookie is its credential (documented as such). */
  const sessionRoute = <S extends FastifySchema, M extends HttpMethod>(
    method: M,
    url: string,
    spec: Omit<RouteSpec<S>, 'tags' | 'tier'>,
  ) => {
    const declared = route(method, url, {
      ...spec,
      tags,
      tier: 'none',
      errors: [...SIGNED_IN, ...(spec.errors ?? [])],
    });
    return { ...declared, schema: { ...declared.schema, security: SESSION_SECURITY }, onRequest: signedIn };
  };
  const writeErrors: ErrorCode[] = ['CSRF_REJECTED'];

  app.route({
    ...route('POST', '/auth/sessions', {
      operationId: 'signIn',
      summary: 'Sign in with e-mail and password: sets the session cookie',
      description:
        'A new session (and token) at every sign-in. A wrong address, a wrong password and an account without an active member answer alike. Failed attempts are limited per account (5 in 15 minutes) and per address (20).',
      tags,
      tier: 'none',
      errors: [...EDGE, 'VALIDATION_ERROR', 'INVALID_CREDENTIALS', 'CSRF_REJECTED'],
      schema: { body: SignIn, response: { 201: Single(SessionView) } },
    }),
    onRequest: anonymous,
    handler: async (request, reply) =>
      issue(request, reply, await service.signIn(env, client(request), request.body), 201),
  });

  app.route({
    ...sessionRoute('GET', '/auth/session', {
      operationId: 'getSession',
      summary: 'The signed-in session: account, companies, CSRF token and time-outs',
      schema: { response: { 200: Single(SessionView) } },
    }),
    handler: async (request) => ({ data: await service.currentView(env, live(request)) }),
  });

  app.route({
    ...sessionRoute('DELETE', '/auth/session', {
      operationId: 'signOut',
      summary: 'Sign out: ends this session and clears its cookie',
      errors: writeErrors,
      schema: { response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.signOut(env, live(request));
      return signedOut(request, reply);
    },
  });

  app.route({
    ...sessionRoute('GET', '/auth/sessions', {
      operationId: 'listSessions',
      summary: "The account's live sessions (up to 20), the current one marked",
      schema: { response: { 200: Type.Object({ data: Type.Array(SessionListItem) }) } },
    }),
    handler: async (request) => ({ data: await service.listSessions(env, live(request)) }),
  });

  app.route({
    ...sessionRoute('DELETE', '/auth/sessions', {
      operationId: 'signOutEverywhere',
      summary: 'Sign out everywhere: ends every session of the account, this one included',
      errors: writeErrors,
      schema: { response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.signOutEverywhere(env, live(request));
      return signedOut(request, reply);
    },
  });

  app.route({
    ...sessionRoute('DELETE', '/auth/sessions/:session_id', {
      operationId: 'endSession',
      summary: "End one of the account's own sessions (another browser)",
      errors: [...writeErrors, 'NOT_FOUND', 'VALIDATION_ERROR'],
      schema: { params: IdParam('session_id'), response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.endOwnSession(env, live(request), request.params.session_id);
      return request.params.session_id === live(request).row.id ? signedOut(request, reply) : noContent(reply);
    },
  });

  app.route({
    ...sessionRoute('PUT', '/auth/password', {
      operationId: 'changePassword',
      summary: 'Change the password: every session of the account ends, this browser gets a new one',
      description:
        'current_password must be right (400 VALIDATION_ERROR naming it; wrong ones count against the account like failed sign-ins); new_password has 10-200 characters and is not the e-mail address.',
      errors: [...writeErrors, 'VALIDATION_ERROR'],
      schema: { body: PasswordChange, response: { 200: Single(SessionView) } },
    }),
    handler: async (request, reply) =>
      issue(request, reply, await service.changePassword(env, client(request), live(request), request.body), 200),
  });

  app.route({
    ...route('POST', '/auth/password-resets', {
      operationId: 'requestPasswordReset',
      summary: 'Mail a password-reset link (always 202: never tells whether the address has an account)',
      description:
        'The link (valid 30 minutes, once) is <public URL>/reset-password#token=...; a new request voids older links. Limited per e-mail address (3 in 15 minutes) and per client address (10).',
      tags,
      tier: 'none',
      errors: [...EDGE, 'VALIDATION_ERROR', 'CSRF_REJECTED'],
      schema: { body: PasswordResetRequest, response: { 202: Single(PasswordResetAccepted) } },
    }),
    onRequest: anonymous,
    handler: async (request, reply) => {
      await requestReset(env, client(request), request.body.email, (error) =>
        request.log.error({ err: error }, 'password reset failed'),
      );
      return reply.code(202).send({ data: { status: 'accepted' as const } });
    },
  });

  app.route({
    ...route('POST', '/auth/password-resets/complete', {
      operationId: 'completePasswordReset',
      summary: "Set a new password with a reset link's token: ends every session, signs this browser in",
      tags,
      tier: 'none',
      errors: [...EDGE, 'VALIDATION_ERROR', 'INVALID_TOKEN', 'CSRF_REJECTED'],
      schema: { body: PasswordResetComplete, response: { 201: Single(SessionView) } },
    }),
    onRequest: anonymous,
    handler: async (request, reply) =>
      issue(request, reply, await completeReset(env, client(request), request.body), 201),
  });
}
