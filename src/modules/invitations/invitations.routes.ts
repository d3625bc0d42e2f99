import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParam, noContent, OffsetOrCursorList, route, Single, single } from '../../platform/http.ts';
import type { ModuleRouteOptions } from '../../platform/modules.ts';
import { EDGE, SessionView, sessionKit } from '../sessions/index.ts';
import {
  Invitation,
  InvitationAccept,
  InvitationCreate,
  InvitationInspection,
  InvitationListQuery,
  InvitationToken,
  INVITATION_FILTERS,
} from './invitations.schemas.ts';
import * as service from './invitations.service.ts';
import { acceptInvitation, inspectInvitation } from './invitations.accept.ts';

const tags = ['Invitations'];
const Params = IdParam('invitation_id');
const RULE =
  'Web application only (docs/decisions/0053): a signed-in owner or admin. An API key that passes the tier is refused with 403 MANAGEMENT_UI_ONLY (the list needs the admin tier first, the writes the write tier).';

/** The team's invitations, managed by owners and admins through a web session. */
function teamRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const config = fastify.config;

  app.route({
    ...route('GET', '/invitations', {
      operationId: 'listInvitations',
      summary: 'List invitations (status: pending, accepted, cancelled, expired)',
      description: RULE,
      tags,
      tier: 'admin',
      filters: INVITATION_FILTERS,
      errors: ['MANAGEMENT_UI_ONLY'],
      schema: { querystring: InvitationListQuery, response: { 200: OffsetOrCursorList(Invitation) } },
    }),
    handler: async (request) => service.listInvitations(request.ctx, request.query),
  });

  app.route({
    ...route('POST', '/invitations', {
      operationId: 'createInvitation',
      summary: 'Invite a person by e-mail: a pending member and a link valid 7 days, once',
      description: `${RULE} person_id invites a limited placeholder member (owners only). Inviting a pending member again replaces its link.`,
      tags,
      tier: 'write',
      companyConfig: true,
      errors: ['MANAGEMENT_UI_ONLY', 'VALIDATION_ERROR', 'INVALID_PERSON'],
      schema: { body: InvitationCreate, response: { 201: Single(Invitation) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.createInvitation(request.ctx, config, request.body), 201),
  });

  app.route({
    ...route('POST', '/invitations/:invitation_id/resend', {
      operationId: 'resendInvitation',
      summary: 'Send a new link (valid 7 days); the previous link stops working',
      description: RULE,
      tags,
      tier: 'write',
      companyConfig: true,
      errors: ['NOT_FOUND', 'MANAGEMENT_UI_ONLY', 'INVALID_STATUS_TRANSITION'],
      schema: { params: Params, response: { 200: Single(Invitation) } },
    }),
    handler: async (request, reply) =>
      single(reply, await service.resendInvitation(request.ctx, config, request.params.invitation_id)),
  });

  app.route({
    ...route('DELETE', '/invitations/:invitation_id', {
      operationId: 'cancelInvitation',
      summary: 'Cancel an invitation: its link stops working; a member it made (pending) becomes inactive',
      description: RULE,
      tags,
      tier: 'write',
      companyConfig: true,
      errors: ['NOT_FOUND', 'MANAGEMENT_UI_ONLY', 'INVALID_STATUS_TRANSITION'],
      schema: { params: Params, response: { 204: Type.Null() } },
    }),
    handler: async (request, reply) => {
      await service.cancelInvitation(request.ctx, request.params.invitation_id);
      return noContent(reply);
    },
  });
}

/** The invitation link's page: no session and no company yet; the token says which. */
function linkRoutes(fastify: FastifyInstance, opts: ModuleRouteOptions) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { env, anonymous, client, issue } = sessionKit(fastify, opts);
  const authTags = ['Web sessions'];

  app.route({
    ...route('POST', '/auth/invitations/inspect', {
      operationId: 'inspectInvitation',
      summary: 'Whom an invitation link is for: company, e-mail, name, and whether the address has an account',
      description:
        'A bad, used, expired, replaced or cancelled link answers 400 INVALID_TOKEN alike. Bad links count against the client address (30 in 15 minutes).',
      tags: authTags,
      tier: 'none',
      errors: [...EDGE, 'VALIDATION_ERROR', 'INVALID_TOKEN', 'CSRF_REJECTED'],
      schema: { body: InvitationToken, response: { 200: Single(InvitationInspection) } },
    }),
    onRequest: anonymous,
    handler: async (request) => ({ data: await inspectInvitation(env, client(request), request.body.token) }),
  });

  app.route({
    ...route('POST', '/auth/invitations/accept', {
      operationId: 'acceptInvitation',
      summary: 'Accept an invitation: sets the password (or checks the existing one), activates the member, signs in',
      description:
        "Without an account the password is new (10-200 characters, not the e-mail address) and name/surname may be given; with one (has_account) it is that account's password: a wrong one is 401 INVALID_CREDENTIALS, counted like a failed sign-in.",
      tags: authTags,
      tier: 'none',
      errors: [...EDGE, 'VALIDATION_ERROR', 'INVALID_TOKEN', 'INVALID_CREDENTIALS', 'CSRF_REJECTED'],
      schema: { body: InvitationAccept, response: { 201: Single(SessionView) } },
    }),
    onRequest: anonymous,
    handler: async (request, reply) =>
      issue(request, reply, await acceptInvitation(env, client(request), request.body), 201),
  });
}

export default async function invitationRoutes(fastify: FastifyInstance, opts: ModuleRouteOptions) {
  fastify.addHook('onClose', async () => void (await service.settleInvitationMails()));
  teamRoutes(fastify);
  linkRoutes(fastify, opts);
}
