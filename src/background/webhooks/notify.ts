import type { Executor } from '../../db/database.ts';
import type { Config } from '../../config.ts';
import { enqueueMail, type Mail } from './mailer.ts';

export interface DisabledSubscription {
  companyId: string;
  id: number;
  event: string;
  url: string;
  failureCount: number;
  createdByPersonId: number | null;
  reason: 'failures' | 'gone';
}

interface Recipient {
  person_id: number;
  email: string | null;
}

/** The company's owners and the subscription's creator (when still a member), each once. */
async function recipients(db: Executor, companyId: string, creatorId: number | null): Promise<Recipient[]> {
  return db
    .selectFrom('members as m')
    .innerJoin('people as p', (j) => j.onRef('p.company_id', '=', 'm.company_id').onRef('p.id', '=', 'm.person_id'))
    .select(['m.person_id', 'p.email'])
    .where('m.company_id', '=', companyId)
    .where((eb) =>
      eb.or([eb('m.role', '=', 'owner'), ...(creatorId === null ? [] : [eb('m.person_id', '=', creatorId)])]),
    )
    .orderBy('m.person_id')
    .execute();
}

function message(sub: DisabledSubscription): { title: string; text: string } {
  const why =
    sub.reason === 'gone'
      ? 'the receiver answered 410 Gone, which retires the subscription'
      : `${sub.failureCount} deliveries in a row failed`;
  const title = `Webhook disabled: ${sub.event} to ${sub.url}`;
  const text = [
    `The webhook subscription ${sub.id} (${sub.event} to ${sub.url}) was disabled because ${why}.`,
    'Events raised while it is disabled are not stored for it.',
    'Fix the receiver, then re-enable the subscription with PATCH /api/v3/webhooks/' + sub.id + ' {"is_active": true};',
    'GET /api/v3/webhooks/' + sub.id + '/deliveries shows what the receiver answered.',
  ].join('\n');
  return { title, text };
}

/**
 * Tells the owners and the creator, in the transaction that disables the subscription: an in-app
 * notification each, and an e-mail to each address. Returns the mails, for the caller to log
 * when no SMTP server is configured.
 */
export async function notifyDisabled(db: Executor, config: Config, sub: DisabledSubscription): Promise<Mail[]> {
  const { title, text } = message(sub);
  const mails: Mail[] = [];
  const data = JSON.stringify({
    webhook_id: sub.id,
    event: sub.event,
    url: sub.url,
    reason: sub.reason,
    failure_count: sub.failureCount,
  });
  for (const person of await recipients(db, sub.companyId, sub.createdByPersonId)) {
    await db
      .insertInto('notifications')
      .values({
        company_id: sub.companyId,
        person_id: person.person_id,
        type: 'webhook_disabled',
        title,
        body: text,
        data,
        read_at: null,
      })
      .execute();
    if (!person.email) continue;
    const mail = { companyId: sub.companyId, to: person.email, subject: title, text };
    await enqueueMail(db, config, mail);
    mails.push(mail);
  }
  return mails;
}
