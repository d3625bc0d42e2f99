import type { Transporter } from 'nodemailer';
import { sql } from 'kysely';
import type { Db, Executor } from '../../db/database.ts';
import type { Config } from '../../config.ts';
import type { Log } from '../log.ts';

export interface Mail {
  companyId: string;
  to: string;
  subject: string;
  text: string;
  /** The HTML alternative a client e-mail from an HTML template carries (mail_outbox.html). */
  html?: string | null;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

const MAX_TRIES = 5;

/** nodemailer over SMTP_URL; undefined when no SMTP server is configured. */
export function createMailer(config: Config): Mailer | undefined {
  const url = config.smtpUrl;
  if (!url) return undefined;
  // nodemailer is loaded with the first mail: most processes never send one.
  let transport: Promise<Transporter> | undefined;
  const open = () => (transport ??= import('nodemailer').then(({ default: mailer }) => mailer.createTransport(url)));
  return {
    send: async (mail) => {
      await (
        await open()
      ).sendMail({
        from: config.mailFrom,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
      });
    },
    close: () => void transport?.then((t) => t.close()).catch(() => undefined),
  };
}

/**
 * Puts a mail in the outbox inside the caller's transaction, so it exists exactly when the
 * decision that caused it commits. Without SMTP it stays there as 'logged' (the caller logs it).
 */
export async function enqueueMail(db: Executor, config: Config, mail: Mail): Promise<void> {
  await db
    .insertInto('mail_outbox')
    .values({
      company_id: mail.companyId,
      recipient: mail.to,
      subject: mail.subject,
      body: mail.text,
      status: config.smtpUrl ? 'queued' : 'logged',
    })
    .execute();
}

/** Sends queued mail; several workers may flush at once (each row is claimed with SKIP LOCKED). */
export async function flushMail(db: Db, mailer: Mailer | undefined, log: Log, limit = 20): Promise<number> {
  if (!mailer) return 0;
  return db.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom('mail_outbox')
      .select(['company_id', 'id', 'recipient', 'subject', 'body', 'html', 'tries'])
      .where('status', '=', 'queued')
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    for (const row of rows) {
      const where = tx.updateTable('mail_outbox').where('company_id', '=', row.company_id).where('id', '=', row.id);
      try {
        await mailer.send({
          companyId: row.company_id,
          to: row.recipient,
          subject: row.subject,
          text: row.body,
          html: row.html,
        });
        await where
          .set({ status: 'sent', sent_at: sql<string>`now()`, tries: row.tries + 1, updated_at: sql<string>`now()` })
          .execute();
      } catch (error) {
        const tries = row.tries + 1;
        log.warn({ err: (error as Error).message, mail_id: row.id, tries }, 'sending mail failed');
        await where
          .set({
            status: tries >= MAX_TRIES ? 'failed' : 'queued',
            tries,
            error: (error as Error).message,
            updated_at: sql<string>`now()`,
          })
          .execute();
      }
    }
    return rows.length;
  });
}
