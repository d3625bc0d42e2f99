import { publicUrlOf } from '../../config.ts';
import { systemActor } from '../../platform/system-actor.ts';
import { deliverMail, recordMail } from '../content-templates/index.ts';
import type { SessionEnv } from './sessions.service.ts';
import * as repo from './sessions.repository.ts';

const RESET_PATH = '/reset-password';
const REDACTED = '[the link is not kept once the mail went out]';

/** The reset link: the token in the fragment, which browsers never send to a server (nor to its logs). */
export const resetLink = (env: SessionEnv, token: string) => `${publicUrlOf(env.config)}${RESET_PATH}#token=${token}`;

function resetMail(email: string, link: string) {
  return {
    to: [email],
    subject: 'Reset your password',
    text: [
      `Someone, hopefully you, asked to reset the password of the account ${email}.`,
      '',
      'Open this link within 30 minutes to choose a new password:',
      link,
      '',
      'The link works once. If you did not ask for this, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}

/**
 * Through the service's one mail mechanism (content-templates): over SMTP_URL, kept in mail_outbox under the
 * account's first company. Sent mail is kept without its link (whoever reads the table must not be able to use
 * it); without SMTP the outbox row is the only copy, kept whole ('logged') for the developer to open.
 */
export async function sendResetMail(env: SessionEnv, account: { id: number; email: string }, token: string) {
  const mail = resetMail(account.email, resetLink(env, token));
  const [company] = await repo.activeCompanies(env.db, account.id);
  const actor = company && (await systemActor(env.db, company.id));
  const record = (status: 'sent' | 'logged' | 'failed', text: string, error: string | null = null) =>
    actor
      ? recordMail(
          { ...actor, db: env.db, requestId: 'password-reset' },
          { ...mail, to: account.email, text },
          status,
          error,
        )
      : Promise.resolve();
  try {
    const delivery = await deliverMail(env.config, mail);
    await record(delivery.how, delivery.how === 'sent' ? mail.text.replace(/^https?:\/\/\S+$/m, REDACTED) : mail.text);
  } catch (error) {
    // Not queued for another try: the link is short-lived, and asking again is the way to a new one.
    await record('failed', mail.text.replace(/^https?:\/\/\S+$/m, REDACTED), (error as Error).message);
    throw error;
  }
}
