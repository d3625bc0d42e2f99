import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestApp } from '../../helpers.ts';
import { textOf, type ReceivedMail } from '../invoice-documents/smtp.ts';
export { textOf } from '../invoice-documents/smtp.ts';
import { settleInvitationMails } from '../../../src/modules/invitations/index.ts';

export const anonymous = { key: null, company: null } as const;

/** Waits for the count-th mail to the address (mails go out after the write commits). */
export async function mailTo(received: ReceivedMail[], email: string, count = 1): Promise<ReceivedMail> {
  for (let i = 0; i < 100; i++) {
    await settleInvitationMails();
    const mails = received.filter((m) => m.to.some((to) => to.toLowerCase() === email.toLowerCase()));
    if (mails.length >= count) return mails[count - 1]!;
    await sleep(50);
  }
  throw new Error(`no mail ${count} to ${email}`);
}

export function tokenOf(mail: ReceivedMail): string {
  const match = /^https:\/\/app\.example\.test\/accept-invitation#token=([A-Za-z0-9_-]{43})$/m.exec(textOf(mail));
  assert.ok(match, `the mail carries the link: ${textOf(mail)}`);
  return match[1]!;
}

export const inspect = (t: TestApp, token: string) =>
  t.request('POST', '/auth/invitations/inspect', { ...anonymous, body: { token } });
export const accept = (t: TestApp, body: Record<string, unknown>) =>
  t.request('POST', '/auth/invitations/accept', { ...anonymous, body });
