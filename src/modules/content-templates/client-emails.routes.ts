import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParam, route, Single } from '../../platform/http.ts';
import * as service from './client-emails.service.ts';
import { ClientEmailInput, ClientEmailResult, MAX_RECIPIENTS } from './content-templates.schemas.ts';

export default async function clientEmailRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // Mail goes through the configured SMTP server (SMTP_URL), as invoice mails do.
  const config = fastify.config;

  app.route({
    ...route('POST', '/clients/:client_id/emails', {
      idempotent: true,
      operationId: 'sendClientEmail',
      summary: "E-mail the client's contacts from a content template (or a subject and body given directly)",
      description:
        `One mail per contact, up to ${MAX_RECIPIENTS} on every path: the contacts named in contact_ids, else every ` +
        `contact with an e-mail (more than ${MAX_RECIPIENTS} of those: 400 TOO_MANY_RECIPIENTS, name them in ` +
        'contact_ids). Each mail counts against the per-company quota (SVC_CLIENT_MAIL_QUOTA per ' +
        'SVC_CLIENT_MAIL_WINDOW seconds, a setting of the service); past it 429 RATE_LIMIT_EXCEEDED with Retry-After. ' +
        "Rendered from template_id, or subject and body, or the company's default client_email template, in each " +
        "contact's locale (else the client's, else the template's default locale). Committed to the mail outbox with a " +
        'note of type email on the client; the client_email_send job (job_id) sends them through SMTP_URL after the ' +
        'request, retrying refusals with back-off (without SMTP_URL they stay in the outbox as logged).',
      tags: ['Clients'],
      tier: 'write',
      entity: 'client',
      errors: ['NOT_FOUND', 'INVALID_CONTACT', 'INVALID_CONTENT_TEMPLATE', 'NO_RECIPIENTS', 'RATE_LIMIT_EXCEEDED'],
      schema: { params: IdParam('client_id'), body: ClientEmailInput, response: { 201: Single(ClientEmailResult) } },
    }),
    handler: async (request, reply) => {
      const result = await service.sendClientEmail(request.ctx, config, request.params.client_id, request.body);
      reply.code(201);
      return { data: result };
    },
  });
}
