// The team in a real Chromium: an owner invites a person, the e-mail comes through a real SMTP server, the person
// accepts and signs in; the owner changes their role (an API key may not) and deactivates them, which ends their
// session in their own browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestApp } from '../helpers.ts';
import { startSmtp, textOf } from '../modules/invoice-documents/smtp.ts';
import { makeAccount } from '../support/sessions.ts';
import { assertAccessible, assertContained, openPage } from './browser.ts';

const smtp = await startSmtp();
const t = await createTestApp({}, { SMTP_URL: smtp.url }, { web: true });
const owner = await makeAccount(t, { personId: t.tenant.ownerPersonId });

async function invitationLink(email: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const mail = smtp.received.find((m) => m.to.includes(email));
    const link = mail && /(http\S+\/accept-invitation#token=[A-Za-z0-9_-]{43})/.exec(textOf(mail))?.[1];
    if (link) return new URL(link).pathname + new URL(link).hash;
    await sleep(50);
  }
  throw new Error(`no invitation reached ${email}`);
}

const liveSessionsOf = async (email: string) =>
  Number(
    (
      await t.db.db
        .selectFrom('sessions')
        .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
        .where('accounts.email', '=', email)
        .where('sessions.ended_at', 'is', null)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

test('invite → e-mail → accept → signed in; the owner changes the role (a key may not) and deactivates, ending the session', async () => {
  const email = `new-colleague-${process.pid}@test.example`;
  const own = await openPage(t.baseUrl);
  await own.page.goto('/team');
  await own.page.getByLabel('E-mail').fill(owner.email);
  await own.page.getByLabel('Password').fill(owner.password);
  await own.page.getByRole('button', { name: 'Sign in' }).click();
  await own.page.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
  await own.page.getByText('No invitation is waiting for an answer.').waitFor();
  await assertAccessible(own.page, 'team');

  await own.page.getByRole('button', { name: 'Invite someone' }).click();
  const dialog = own.page.getByRole('dialog', { name: 'Invite someone' });
  await assertAccessible(own.page, 'invite dialog');
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('First name').fill('Kadri');
  await dialog.getByLabel('Last name').fill('Kuusk');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await own.page.getByText(`An invitation went to ${email}.`).waitFor();
  await own.page
    .getByRole('row', { name: new RegExp(email) })
    .first()
    .waitFor();

  // The invited person, in a browser of their own.
  const link = await invitationLink(email);
  const theirs = await openPage(t.baseUrl);
  await theirs.page.goto(link);
  await theirs.page.getByRole('heading', { name: /^Join / }).waitFor();
  await assertAccessible(theirs.page, 'accept invitation');
  await theirs.page.getByLabel('Password', { exact: true }).fill('my own passphrase');
  await theirs.page.getByLabel('Repeat the password').fill('my own passphrase');
  await theirs.page.getByRole('button', { name: 'Accept and sign in' }).click();
  await theirs.page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
  assert.equal(await liveSessionsOf(email), 1);

  // The owner sees an active member, and makes them an administrator.
  await own.page.reload();
  const row = own.page.getByRole('row', { name: /Kadri Kuusk/ });
  await row.getByText('Active').waitFor();
  const members = await t.request('GET', `/members?limit=200`);
  const member = members.body.data.find((m: any) => m.email === email);
  assert.equal(member.status, 'active');
  const byKey = await t.request('PATCH', `/members/${member.person_id}`, { body: { role: 'admin' } });
  assert.equal(byKey.status, 403, byKey.text);
  assert.equal(byKey.body.error.code, 'MANAGEMENT_UI_ONLY');

  await own.page.getByRole('button', { name: 'Actions for Kadri Kuusk' }).click();
  await own.page.getByRole('menuitem', { name: 'Change role' }).click();
  const roleDialog = own.page.getByRole('dialog', { name: 'Change the role of Kadri Kuusk' });
  await roleDialog.getByRole('button', { name: /Role/ }).click();
  await own.page.getByRole('option', { name: 'Administrator' }).click();
  await roleDialog.getByRole('button', { name: 'Save' }).click();
  await own.page.getByText('Kadri Kuusk is now Administrator.').waitFor();
  assert.equal((await t.request('GET', `/members/${member.person_id}`)).body.data.role, 'admin');

  // Deactivated: signed out everywhere; their open page goes to sign in at its next request.
  await own.page.getByRole('button', { name: 'Actions for Kadri Kuusk' }).click();
  await own.page.getByRole('menuitem', { name: 'Deactivate' }).click();
  await own.page
    .getByRole('alertdialog', { name: 'Deactivate Kadri Kuusk?' })
    .getByRole('button', { name: 'Deactivate' })
    .click();
  await own.page.getByText('Kadri Kuusk was deactivated.').waitFor();
  assert.equal(await liveSessionsOf(email), 0);
  await theirs.page.getByRole('link', { name: 'Contacts' }).click();
  await theirs.page.waitForURL(/\/sign-in\?reason=expired/);
  assertContained(own);
  assertContained(theirs);
  await own.context.close();
  await theirs.context.close();
});
