// A person who works for two companies, in a real Chromium: they choose one after signing in, see only its
// clients, and switch to the other from the account menu without the first one's records showing under it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';
import { makeAccount, signIn, uniqueEmail } from '../support/sessions.ts';
import { assertAccessible, assertContained, openPage } from './browser.ts';

const t = await createTestApp({}, {}, { web: true });
const second = await t.newTenant({ name: 'Second Company Ltd' });

test('two companies: choose one after signing in, see only its clients, switch from the account menu', async () => {
  const email = uniqueEmail('two-companies');
  const password = 'works for two firms';
  await makeAccount(t, { personId: t.tenant.ownerPersonId, email, password });
  await makeAccount(t, { tenant: second, personId: second.ownerPersonId, email, password });
  const view = (await signIn(t, email, password)).body.data;
  const names = Object.fromEntries(view.companies.map((c: { id: string; name: string }) => [c.id, c.name]));
  const first = names[t.tenant.companyId] as string;
  assert.equal(names[second.companyId], 'Second Company Ltd');
  assert.equal((await t.request('POST', '/clients', { body: { name: 'First Firm Client' } })).status, 201);
  const made = await t.request('POST', '/clients', { tenant: second, body: { name: 'Second Firm Client' } });
  assert.equal(made.status, 201, made.text);

  const watched = await openPage(t.baseUrl);
  const { page } = watched;
  await page.goto('/clients');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Choose a company' }).waitFor();
  await assertAccessible(page, 'choose a company');
  await page.getByRole('button', { name: /^Second Company Ltd/ }).click();
  await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();
  await page.getByRole('row', { name: /Second Firm Client/ }).waitFor();
  assert.equal(await page.getByRole('row', { name: /First Firm Client/ }).count(), 0);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await assertAccessible(page, 'account menu');
  await page.getByRole('menuitem', { name: first }).click();
  await page.getByRole('row', { name: /First Firm Client/ }).waitFor();
  assert.equal(await page.getByRole('row', { name: /Second Firm Client/ }).count(), 0);
  // The choice is remembered in this browser: a new page opens in the company chosen last.
  await page.reload();
  await page.getByRole('row', { name: /First Firm Client/ }).waitFor();
  assertContained(watched);
  await watched.context.close();
});
