import type { Config } from '../../config.ts';
import { publicUrlOf } from '../../config.ts';
import type { Ctx } from '../../platform/context.ts';
import { deliverMail, recordMail } from '../content-templates/index.ts';
import { INVITATION_DAYS } from './invitations.schemas.ts';

const ACCEPT_PATH = '/accept-invitation';
const REDACTED = '[the link is not kept once the mail went out]';

/** The token rides in the fragment, which browsers never send to a server (nor to its logs). */
export const invitationLink = (config: Config, token: string) => `${publicUrlOf(config)}${ACCEPT_PATH}#token=${token}`;

function invitationMail(config: Config, company: string, email: string, token: string) {
  return {
    to: [email],
    subject: `You are invited to ${company}`,
    text: [
      `You are invited to join ${company}.`,
      '',
      `Open this link within ${INVITATION_DAYS} days to accept and sign in:`,
      invitationLink(config, token),
      '',
      'The link works once. If you did not expect this, ignore this mail.',
    ].join('\n'),
  };
}

/**
 * Over SMTP_URL through the service's one mail mechanism, kept in mail_outbox: without its link once sent (whoever
 * reads the table must not be able to accept), whole when only logged (no SMTP: the developer opens it there). A
 * failure is recorded, not retried: a resend gives a new link.
 */
export async function sendInvitationMail(ctx: Ctx, config: Config, email: string, token: string): Promise<void> {
  const mail = invitationMail(config, ctx.company.name, email, token);
  const redacted = mail.text.replace(/^https?:\/\/\S+$/m, REDACTED);
  try {
    const delivery = await deliverMail(config, mail);
    await recordMail(ctx, { ...mail, to: email, text: delivery.how === 'sent' ? redacted : mail.text }, delivery.how);
  } catch (error) {
    await recordMail(ctx, { ...mail, to: email, text: redacted }, 'failed', (error as Error).message);
    throw error;
  }
}
