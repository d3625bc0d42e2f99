import type { Config } from '../../config.ts';
import type { Ctx } from '../../platform/context.ts';
import { nowStamp } from '../../platform/sql.ts';
import { scoped } from '../../platform/tenant-table.ts';

/**
 * The service's own outgoing mail to customers (invoice mails, client e-mails): handed straight to the
 * SMTP server of SMTP_URL, and recorded in mail_outbox in the caller's transaction. The invoice sender
 * and POST /clients/{id}/emails both use this one mechanism.
 */
export interface OutgoingMail {
  to: string[];
  subject: string;
  text: string;
  /** An HTML alternative of `text` (HTML templates). */
  html?: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
}

export interface Delivery {
  how: 'sent' | 'logged';
  /** Recipients the SMTP server refused while it took the mail for the others. */
  rejected: string[];
}

/**
 * Hands the mail to the SMTP server of SMTP_URL, or, with none configured, to nobody ('logged': the
 * caller keeps it in mail_outbox, as the service's other mail). Throws what the SMTP server answered.
 */
export async function deliverMail(config: Config, mail: OutgoingMail): Promise<Delivery> {
  if (!config.smtpUrl) return { how: 'logged', rejected: [] };
  // Loaded on the first mail, not at start (a service without SMTP_URL never needs it).
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  });
  try {
    const info = await transport.sendMail({
      from: config.mailFrom,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      ...(mail.html !== undefined ? { html: mail.html } : {}),
      ...(mail.attachments ? { attachments: mail.attachments } : {}),
    });
    // Some recipients refused, others took it: it went out; the refused ones are noted with the mail.
    return { how: 'sent', rejected: (info.rejected ?? []).map(String) };
  } finally {
    transport.close();
  }
}

/**
 * The mail as it went out ('sent'), was only logged without SMTP ('logged'), or was refused by the SMTP
 * server ('queued': the background mail flush retries it from the outbox, like the service's other mail;
 * 'failed': a mail not worth another try, such as a short-lived password-reset link).
 */
export async function recordMail(
  ctx: Ctx,
  mail: { to: string; subject: string; text: string },
  status: 'sent' | 'logged' | 'queued' | 'failed',
  error: string | null = null,
): Promise<void> {
  await scoped
    .insert(ctx, 'mail_outbox', [
      {
        recipient: mail.to,
        subject: mail.subject,
        body: mail.text,
        status,
        tries: 1,
        error,
        sent_at: status === 'sent' ? nowStamp() : null,
      },
    ])
    .execute();
}
