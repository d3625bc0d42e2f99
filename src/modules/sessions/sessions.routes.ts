import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ErrorCode } from '../../platform/errors.ts';
import { IdParam, noContent, route, Single } from '../../platform/http.ts';
import type { ModuleRouteOptions } from '../../platform/modules.ts';
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
import { EDGE, sessionKit, tags, type SessionKit } from './sessions.http.ts';

const writeErrors: ErrorCode[] = ['CSRF_REJECTED'];

/** Before any session exists: sign in, and the password reset by mail. */
function anonymousRoutes(fastify: FastifyInstance, kit: SessionKit) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { env, anonymous, client, issue } = kit;

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

/** The signed-in session: read it, sign out (here, one other, everywhere), list the account's sessions. */
function signedInRoutes(fastify: FastifyInstance, kit: SessionKit) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { env, live, sessionRoute, signedOut } = kit;

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
}

/** PUT /auth/password: the signed-in account changes its password. */
function passwordRoute(fastify: FastifyInstance, kit: SessionKit) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { env, client, live, issue, sessionRoute } = kit;

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
}

/**
 * The web application's sign-in (docs/decisions/0051): no X-Service-Company and no API key. Routes that act on a
 * session find it from the cookie (and for writes check the CSRF token); the anonymous posts check Origin and
 * Sec-Fetch-Site (login CSRF).
 */
export default async function sessionRoutes(fastify: FastifyInstance, opts: ModuleRouteOptions) {
  // Reset mails handed on by requests finish before the pool they use is closed.
  fastify.addHook('onClose', async () => void (await settleResets()));
  const kit = sessionKit(fastify, opts);
  anonymousRoutes(fastify, kit);
  signedInRoutes(fastify, kit);
  passwordRoute(fastify, kit);
}
