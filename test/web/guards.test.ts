// What protects a signed-in browser, seen from a real Chromium: sign-in throttling says when to try again, and a
// write from the page without the session's CSRF token is refused while the application's own writes go through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';
import { makeAccount, newMember } from '../support/sessions.ts';
import { assertAccessible, openPage } from './browser.ts';

const t = await createTestApp({}, {}, { web: true });

test('five wrong passwords lock the account for the window: the screen says how long, the right password waits too', async () => {
  const me = await makeAccount(t, { personId: await newMember(t, 'member') });
  const watched = await openPage(t.baseUrl);
  const { page } = watched;
  await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(me.email);
  // Each attempt waits for its answer: a click while the last one is pending would not be sent.
  const attempt = async (password: string) => {
    await page.getByLabel('Password').fill(password);
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/v3/auth/sessions'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    return (await answered).status();
  };
  for (let i = 0; i < 5; i++) {
    assert.equal(await attempt(`wrong guess ${i}`), 401);
    await page.getByRole('alert').filter({ hasText: 'The e-mail or password is not correct.' }).waitFor();
  }
  assert.equal(await attempt(me.password), 429);
  const alert = page.getByRole('alert').filter({ hasText: /^Too many attempts\. Try again in \d+ seconds\.$/ });
  await alert.waitFor();
  const seconds = Number(/(\d+) seconds/.exec((await alert.textContent()) ?? '')![1]);
  assert.ok(seconds > 0 && seconds <= 15 * 60, `${seconds} s until the window ends`);
  await assertAccessible(page, 'sign-in, throttled');
  assert.match(page.url(), /\/sign-in$/);
  await watched.context.close();
});

test('a write from the page without the CSRF token is refused; with it (as the application sends) it goes through', async () => {
  const me = await makeAccount(t, { personId: t.tenant.ownerPersonId });
  const watched = await openPage(t.baseUrl);
  const { page } = watched;
  await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(me.email);
  await page.getByLabel('Password').fill(me.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();

  const answers = await page.evaluate(async (company) => {
    const post = (headers: Record<string, string>) =>
      fetch('/api/v3/clients', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-service-company': company, ...headers },
        body: JSON.stringify({ name: 'Written from the page' }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: { code: string } } }));
    const session = (await fetch('/api/v3/auth/session').then((r) => r.json())) as { data: { csrf_token: string } };
    return {
      without: await post({}),
      wrong: await post({ 'x-csrf-token': 'not-the-token' }),
      with: await post({ 'x-csrf-token': session.data.csrf_token }),
    };
  }, t.tenant.companyId);
  assert.equal(answers.without.status, 403);
  assert.equal(answers.without.body.error?.code, 'CSRF_REJECTED');
  assert.equal(answers.wrong.status, 403);
  assert.equal(answers.wrong.body.error?.code, 'CSRF_REJECTED');
  assert.equal(answers.with.status, 201);
  const stored = await t.request('GET', `/clients?q=${encodeURIComponent('Written from the page')}`);
  assert.equal(stored.body.data.length, 1, 'only the write with the token was stored');
  await watched.context.close();
});
