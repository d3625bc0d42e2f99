// The person's own account in a real Chromium: language and password on the profile, a forgotten password reset
// through a real SMTP server, a session that ends under the page, and signing out everywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { createTestApp } from '../helpers.ts';
import { startSmtp, textOf } from '../modules/invoice-documents/smtp.ts';
import { settleResets } from '../../src/modules/sessions/sessions.resets.ts';
import { makeAccount, newMember, signIn } from '../support/sessions.ts';
import { assertAccessible, assertContained, openPage } from './browser.ts';

const smtp = await startSmtp();
const t = await createTestApp({}, { SMTP_URL: smtp.url }, { web: true });

async function signInAs(page: Page, email: string, password: string, path = '/profile') {
  await page.goto(path);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(new RegExp(`${path}$`));
}

/** A member of its own with an account: each test changes passwords and sessions without touching the others. */
async function person() {
  const personId = await newMember(t, 'member');
  return { personId, ...(await makeAccount(t, { personId })) };
}

const liveSessions = async (accountId: number) =>
  Number(
    (
      await t.db.db
        .selectFrom('sessions')
        .where('account_id', '=', accountId)
        .where('ended_at', 'is', null)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

test('profile: German changes the screens, the date formats and the page language; a password change keeps only this session', async () => {
  const me = await person();
  const elsewhere = await signIn(t, me.email, me.password);
  const watched = await openPage(t.baseUrl);
  const { page } = watched;
  await signInAs(page, me.email, me.password);
  await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
  await assertAccessible(page, 'profile');

  await page.getByRole('button', { name: /Language and formats/ }).click();
  await page.getByRole('option', { name: 'Deutsch' }).click();
  await page.getByRole('button', { name: 'Save' }).first().click();
  await page.getByRole('heading', { name: 'Profil', level: 1 }).waitFor();
  await page.locator('html[lang="de"]').waitFor({ state: 'attached' });
  await page
    .getByText(/^Angemeldet \d{1,2}\.\d{1,2}\.\d{4}/)
    .first()
    .waitFor();
  const member = await t.request('GET', `/members/${me.personId}`);
  assert.equal(member.body.data.locale_code, 'de');
  await assertAccessible(page, 'profile, German');

  await page.getByLabel('Aktuelles Passwort').fill(me.password);
  await page.getByLabel('Neues Passwort', { exact: true }).fill('a brand new passphrase');
  await page.getByLabel('Neues Passwort wiederholen').fill('a brand new passphrase');
  await page.getByRole('button', { name: 'Passwort ändern' }).click();
  await page.getByText('Ihr Passwort wurde geändert.', { exact: false }).waitFor();
  // The other browser's session ended; this page goes on with the new session the change answered.
  const old = await t.request('GET', '/auth/session', {
    key: null,
    company: null,
    headers: { cookie: elsewhere.cookie },
  });
  assert.equal(old.status, 401);
  assert.equal(await liveSessions(me.accountId), 1);
  await page.getByRole('link', { name: 'Kunden' }).click();
  await page.getByRole('heading', { name: 'Kunden', level: 1 }).waitFor();
  assertContained(watched);
  await watched.context.close();
});

test('a forgotten password: the mail comes through SMTP, its link sets a new password and signs in', async () => {
  const me = await person();
  const watched = await openPage(t.baseUrl);
  const { page } = watched;
  await page.goto('/sign-in');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  await assertAccessible(page, 'forgot password');
  await page.getByLabel('E-mail').fill(me.email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await page.getByText(`If an account uses ${me.email}`).waitFor();

  let link: string | undefined;
  for (let i = 0; i < 100 && !link; i++) {
    await settleResets();
    const mail = smtp.received.find((m) => m.to.includes(me.email));
    link = mail && /^(http\S+\/reset-password#token=[A-Za-z0-9_-]{43})$/m.exec(textOf(mail))?.[1];
    if (!link) await sleep(50);
  }
  assert.ok(link, 'the reset mail arrived with its link');
  await page.goto(new URL(link).pathname + new URL(link).hash);
  await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
  await assertAccessible(page, 'reset password');
  await page.getByLabel('New password', { exact: true }).fill('recovered at last');
  await page.getByLabel('Repeat the new password').fill('recovered at last');
  await page.getByRole('button', { name: 'Save and sign in' }).click();
  await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
  assert.equal((await signIn(t, me.email, 'recovered at last')).body.data.account.id, me.accountId);

  // The link works once.
  await page.context().clearCookies();
  await page.goto(new URL(link).pathname + new URL(link).hash);
  await page.getByLabel('New password', { exact: true }).fill('another one entirely');
  await page.getByLabel('Repeat the new password').fill('another one entirely');
  await page.getByRole('button', { name: 'Save and sign in' }).click();
  await page.getByText('This link is not valid any more. Ask for a new one.').waitFor();
  assertContained(watched);
  await watched.context.close();
});

test('a session that ends under the page (signed out from elsewhere) sends the person to sign in, and back', async () => {
  const me = await person();
  const watched = await openPage(t.baseUrl);
  const { page } = watched;
  await signInAs(page, me.email, me.password, '/clients');
  await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
  await page.waitForLoadState('networkidle');
  const other = await signIn(t, me.email, me.password);
  const ended = await t.request('DELETE', '/auth/sessions', {
    key: null,
    company: null,
    headers: { cookie: other.cookie, 'x-csrf-token': other.csrf },
  });
  assert.equal(ended.status, 204, ended.text);
  await page.getByRole('link', { name: 'Contacts' }).click();
  await page.waitForURL(/\/sign-in\?reason=expired&next=%2Fcontacts$/);
  await page.getByText('Your session has ended. Sign in again.').waitFor();
  await page.getByLabel('E-mail').fill(me.email);
  await page.getByLabel('Password').fill(me.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
  await watched.context.close();
});

test('sign out everywhere ends every session of the account, this one included', async () => {
  const me = await person();
  await signIn(t, me.email, me.password);
  const watched = await openPage(t.baseUrl);
  const { page } = watched;
  await signInAs(page, me.email, me.password);
  await page.getByText('This browser').waitFor();
  assert.equal(await liveSessions(me.accountId), 2);
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Sign out everywhere?' });
  await assertAccessible(page, 'sign out everywhere');
  await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
  await page.waitForURL(/\/sign-in\?reason=signed-out$/);
  await page.getByText('You have been signed out.').waitFor();
  assert.equal(await liveSessions(me.accountId), 0);
  await page.goto('/profile');
  await page.waitForURL(/\/sign-in\?next=%2Fprofile$/);
  await watched.context.close();
});
