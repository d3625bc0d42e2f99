import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { lockLive } from '../../platform/references.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { mailClient } from '../clients/index.ts';
import { mailContacts, type MailContact } from '../contacts/index.ts';
import { insertNote } from '../notes/index.ts';

export interface MailClient {
  id: number;
  name: string;
  locale_code: string | null;
}

export type { MailContact };

/** Locks the live client the caller may see (a plain member's personal key sees its own clients only). */
export async function lockClient(ctx: Ctx, clientId: number): Promise<MailClient | undefined> {
  if (!(await lockLive(ctx, 'clients', clientId))) return undefined;
  return mailClient(ctx, clientId);
}

/** The client's live contacts to write to (the contacts module's rule of a mailable address). */
export const contactsOf = mailContacts;

/** The `email` note logging a client e-mail, stored the notes module's one way (its HTML policy runs on it). */
export const insertEmailNote = (ctx: Ctx, clientId: number, comments: string) =>
  insertNote(ctx, {
    related_type: 'client',
    related_id: clientId,
    type: 'email',
    comments,
    created_by_person_id: ctx.actor.personId,
  });

export interface QueuedMail {
  id: number;
  recipient: string;
  subject: string;
  body: string;
  html: string | null;
  tries: number;
}

/** Puts one mail in the outbox, in the request's transaction: queued for the sender job, or logged (no SMTP). */
export async function insertMail(
  ctx: Ctx,
  mail: { to: string; subject: string; text: string; html?: string },
  status: 'queued' | 'logged',
): Promise<number> {
  const row = await scoped
    .insert(ctx, 'mail_outbox', [
      { recipient: mail.to, subject: mail.subject, body: mail.text, html: mail.html ?? null, status },
    ])
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Claims one still-queued mail for the rest of the transaction; undefined when it went out meanwhile or
 * another sender (the job resumed elsewhere, the webhook worker's mail flush) holds it.
 */
export function claimQueuedMail(ctx: Ctx, id: number): Promise<QueuedMail | undefined> {
  return scoped
    .select(ctx, 'mail_outbox', 'm')
    .select(['m.id', 'm.recipient', 'm.subject', 'm.body', 'm.html', 'm.tries'])
    .where('m.id', '=', id)
    .where('m.status', '=', 'queued')
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

export async function markMail(
  ctx: Ctx,
  mail: QueuedMail,
  status: 'sent' | 'logged' | 'queued' | 'failed',
  error: string | null,
): Promise<void> {
  await scoped
    .update(ctx, 'mail_outbox')
    .set({
      status,
      tries: mail.tries + 1,
      error,
      sent_at: status === 'sent' ? sql<string>`now()` : null,
      updated_at: sql<string>`now()`,
    })
    .where('id', '=', mail.id)
    .execute();
}
