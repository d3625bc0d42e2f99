import type { Config } from '../../config.ts';
import { inTransaction, type Ctx } from '../../platform/context.ts';
import { domainValidation, fail } from '../../platform/errors.ts';
import { orNotFound } from '../../platform/mutate.ts';
import * as repo from './client-emails.repository.ts';
import { queueSending } from './client-emails.job.ts';
import { countClientMails } from './client-emails.quota.ts';
import type { OutgoingMail } from './content-templates.mail.ts';
import { assertPlaceholders, escapeHtml, renderRow } from './content-templates.render.ts';
import { findDefault, findTemplate } from './content-templates.repository.ts';
import {
  MAX_RECIPIENTS,
  type ClientEmailBody,
  type ClientEmailResultRecord,
  type ContentTemplateRecord,
} from './content-templates.schemas.ts';
import { renderTemplate } from './content-templates.use.ts';

type Recipient = ClientEmailResultRecord['recipients'][number];
type Source =
  | { template: ContentTemplateRecord }
  | { direct: Required<Pick<ClientEmailBody, 'subject' | 'body'>> & { format: 'text' | 'html' } };

/** What the mail says: the template named, the text given, or the company's default client_email template. */
async function sourceOf(ctx: Ctx, body: ClientEmailBody): Promise<Source> {
  const direct = body.subject !== undefined || body.body !== undefined || body.format !== undefined;
  if (body.template_id !== undefined) {
    if (direct)
      throw domainValidation('TEMPLATE_OR_TEXT', 'give template_id, or subject and body, not both', {
        field: 'template_id',
      });
    const template = await findTemplate(ctx, body.template_id);
    if (!template || template.type !== 'client_email' || template.status !== 'active')
      fail(
        'INVALID_CONTENT_TEMPLATE',
        `template_id ${body.template_id} does not name an active client_email template of this company`,
        {
          field: 'template_id',
          value: body.template_id,
        },
      );
    return { template };
  }
  if (direct) {
    if (body.subject === undefined || body.body === undefined)
      throw domainValidation('TEMPLATE_OR_TEXT', 'a message given directly needs both subject and body', {
        field: body.subject === undefined ? 'subject' : 'body',
      });
    assertPlaceholders('client_email', 'subject', body.subject);
    assertPlaceholders('client_email', 'body', body.body);
    // An HTML body goes through the HTML policy once its placeholders are filled (renderRow), as a template's does.
    return { direct: { subject: body.subject, body: body.body, format: body.format ?? 'text' } };
  }
  const template = await findDefault(ctx, 'client_email');
  if (!template)
    throw domainValidation(
      'TEMPLATE_OR_TEXT',
      'give template_id, or subject and body: the company has no default client_email template',
      {
        field: 'template_id',
      },
    );
  return { template };
}

/**
 * The contacts to mail: those named (each a live contact of this client with an e-mail), else all with one. Both
 * paths have the one cap, MAX_RECIPIENTS: the schema bounds contact_ids, and a client with more mailable contacts
 * is refused (400 TOO_MANY_RECIPIENTS: name them in contact_ids), never cut short silently.
 */
async function recipientsOf(ctx: Ctx, clientId: number, ids: number[] | undefined): Promise<repo.MailContact[]> {
  const contacts = await repo.contactsOf(ctx, clientId, ids ? { ids } : { limit: MAX_RECIPIENTS + 1 });
  if (ids) {
    const missing = ids.filter((id) => !contacts.some((c) => c.id === id));
    if (missing.length)
      fail('INVALID_CONTACT', `contact_ids ${missing.join(', ')} do not name contacts of client ${clientId}`, {
        field: 'contact_ids',
        value: missing,
      });
    const without = contacts.filter((c) => !c.mailable).map((c) => c.id);
    if (without.length)
      fail('NO_RECIPIENTS', `contact(s) ${without.join(', ')} have no e-mail address`, { contact_ids: without });
  }
  if (contacts.length === 0) fail('NO_RECIPIENTS', `client ${clientId} has no contact with an e-mail address`);
  if (contacts.length > MAX_RECIPIENTS)
    throw domainValidation(
      'TOO_MANY_RECIPIENTS',
      `client ${clientId} has more than ${MAX_RECIPIENTS} contacts with an e-mail address: name up to ${MAX_RECIPIENTS} in contact_ids`,
      { field: 'contact_ids', limit: MAX_RECIPIENTS },
    );
  return contacts;
}

function compose(ctx: Ctx, source: Source, client: repo.MailClient, contact: repo.MailContact) {
  const values = {
    'client.name': client.name,
    'contact.name': [contact.name, contact.surname].filter(Boolean).join(' '),
    'contact.email': contact.email!,
  };
  if ('direct' in source)
    return {
      ...renderRow(source.direct.format, source.direct, { 'company.name': ctx.company.name, ...values }),
      locale: null,
    };
  const rendered = renderTemplate(ctx, source.template, contact.locale_code ?? client.locale_code, values);
  if (!rendered)
    throw domainValidation('TEMPLATE_EMPTY', `content template ${source.template.id} has no rows to send`, {
      field: 'template_id',
    });
  return rendered;
}

/** The note logging the mail: who got it (and how), and each distinct text once. */
function noteOf(mails: Array<OutgoingMail & Recipient>): string {
  const who = mails.map((m) => `<li>${escapeHtml(m.to[0]!)} (${m.status})</li>`).join('');
  const texts = [...new Map(mails.map((m) => [`${m.subject}\n${m.html ?? m.text}`, m])).values()].map(
    (m) =>
      `<p><strong>${escapeHtml(m.subject)}</strong></p>${m.html ?? `<p>${escapeHtml(m.text).replace(/\n/g, '<br>')}</p>`}`,
  );
  return `<p>E-mail to:</p><ul>${who}</ul>${texts.join('<hr>')}`;
}

type Composed = ReturnType<typeof compose> & { contact: repo.MailContact };

/** Each mail into mail_outbox, in the request's transaction. */
async function storeMails(ctx: Ctx, composed: Composed[], status: 'queued' | 'logged') {
  const mails: Array<OutgoingMail & Recipient> = [];
  const mailIds: number[] = [];
  for (const { contact, locale, subject, text, html } of composed) {
    const to = contact.email!;
    const part = html !== undefined ? { html } : {};
    mailIds.push(await repo.insertMail(ctx, { to, subject, text, ...part }, status));
    mails.push({ to: [to], subject, text, ...part, contact_id: contact.id, email: to, locale, status });
  }
  return { mails, mailIds };
}

/**
 * POST /clients/{id}/emails: one mail per contact (each in their own locale), rendered before anything is
 * written (a bad template sends nothing), then counted against the company's quota. In the request's transaction
 * each mail goes to mail_outbox (queued for SMTP_URL, or logged without it) with the `email` note and, when there
 * is something to send, the client_email_send job; the SMTP conversation happens in that job after the commit.
 */
export async function sendClientEmail(
  ctx: Ctx,
  config: Config,
  clientId: number,
  body: ClientEmailBody,
): Promise<ClientEmailResultRecord> {
  return inTransaction(ctx, async (tx) => {
    const client = orNotFound(await repo.lockClient(tx, clientId), 'Client');
    const source = await sourceOf(tx, body);
    const contacts = await recipientsOf(tx, clientId, body.contact_ids);
    const composed = contacts.map((contact) => ({ contact, ...compose(tx, source, client, contact) }));
    await countClientMails(tx, config.clientMailQuota, composed.length);
    const status = config.smtpUrl ? 'queued' : 'logged';
    const { mails, mailIds } = await storeMails(tx, composed, status);
    const noteId = await repo.insertEmailNote(tx, clientId, noteOf(mails));
    const jobId = status === 'queued' ? await queueSending(tx, config, mailIds) : null;
    return {
      client_id: clientId,
      note_id: noteId,
      template_id: 'template' in source ? source.template.id : null,
      job_id: jobId,
      recipients: mails.map(({ contact_id, email, locale, subject, status }) => ({
        contact_id,
        email,
        locale,
        subject,
        status,
      })),
    };
  });
}
