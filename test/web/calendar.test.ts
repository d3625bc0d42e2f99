// The calendar in a real Chromium: a member asks for vacation and flextime, the owner approves one and rejects the
// other on the screen, and an API key still may not approve (CALENDAR_APPROVAL_UI_ONLY).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { createTestApp } from '../helpers.ts';
import { makeAccount, newMember } from '../support/sessions.ts';
import { assertAccessible, assertContained, openPage } from './browser.ts';

const t = await createTestApp({}, {}, { web: true });
const owner = await makeAccount(t, { personId: t.tenant.ownerPersonId });
const memberPerson = await newMember(t, 'member');
const member = await makeAccount(t, { personId: memberPerson });
const year = new Date().getUTCFullYear() + 1;

async function signedIn(who: { email: string; password: string }) {
  const watched = await openPage(t.baseUrl);
  await watched.page.goto('/calendar');
  await watched.page.getByLabel('E-mail').fill(who.email);
  await watched.page.getByLabel('Password').fill(who.password);
  await watched.page.getByRole('button', { name: 'Sign in' }).click();
  await watched.page.getByRole('heading', { name: 'Calendar', level: 1 }).waitFor();
  return watched;
}

/** Types a date into a labelled date field, segment by segment whatever the locale's order. */
async function typeDate(page: Page, label: string, iso: string) {
  const [year, month, day] = iso.split('-') as [string, string, string];
  const group = page.getByRole('group', { name: label });
  for (const [segment, value] of [
    ['month', month],
    ['day', day],
    ['year', year],
  ] as const) {
    await group.getByRole('spinbutton', { name: new RegExp(`^${segment}`, 'i') }).click();
    await page.keyboard.type(value);
  }
}

async function request(page: Page, type: string, from: string, until: string, note: string) {
  await page.getByRole('button', { name: 'New request' }).click();
  const dialog = page.getByRole('dialog', { name: 'New request' });
  await dialog.getByRole('button', { name: /Type/ }).click();
  await page.getByRole('option', { name: type }).click();
  await typeDate(page, 'First day', from);
  await typeDate(page, 'Last day', until);
  await dialog.getByLabel('Note').fill(note);
  // The notice of an earlier request may still show: the answer to this one is what is waited for.
  const created = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/v3/calendar'));
  await dialog.getByRole('button', { name: 'Submit' }).click();
  assert.equal((await created).status(), 201);
  await dialog.waitFor({ state: 'hidden' });
  await page.getByText('Your request was submitted for approval.').first().waitFor();
}

const entriesOf = async (person: number) =>
  (await t.request('GET', `/calendar?person_id=${person}&date_from=${year}-01-01&date_until=${year}-12-31&limit=50`))
    .body.data;

test('a member asks for vacation and flextime; the owner approves one and rejects the other; a key may not approve', async () => {
  const mine = await signedIn(member);
  await assertAccessible(mine.page, 'calendar, member');
  await request(mine.page, 'Vacation', `${year}-07-06`, `${year}-07-17`, 'Summer by the sea');
  await request(mine.page, 'Flextime', `${year}-03-13`, `${year}-03-13`, 'Long weekend');
  const asked = await entriesOf(memberPerson);
  assert.deepEqual(asked.map((e: any) => [e.type, e.status, e.date_from, e.date_until, e.description]).sort(), [
    ['flextime', 'in_review', `${year}-03-13`, `${year}-03-13`, 'Long weekend'],
    ['vacation', 'in_review', `${year}-07-06`, `${year}-07-17`, 'Summer by the sea'],
  ]);
  // A plain member sees no approvals of their own to decide.
  assert.equal(await mine.page.getByRole('button', { name: /^Approve the/ }).count(), 0);

  const vacation = asked.find((e: any) => e.type === 'vacation');
  const byKey = await t.request('PATCH', `/calendar/${vacation.id}`, { body: { status: 'approved' } });
  assert.equal(byKey.status, 409, byKey.text);
  assert.equal(byKey.body.error.code, 'CALENDAR_APPROVAL_UI_ONLY');

  const own = await signedIn(owner);
  await own.page.getByRole('heading', { name: 'Waiting for approval' }).waitFor();
  await assertAccessible(own.page, 'calendar, approvals');
  await own.page.getByRole('button', { name: /^Approve the Vacation of / }).click();
  await own.page.getByText('Approved.').waitFor();
  await own.page.getByRole('button', { name: /^Approve the Vacation of / }).waitFor({ state: 'detached' });
  await own.page.getByRole('button', { name: /^Reject the Flextime of / }).click();
  await own.page.getByText('Rejected.').waitFor();
  await own.page.getByText('No request is waiting for you.').waitFor();
  const decided = await entriesOf(memberPerson);
  assert.deepEqual(decided.map((e: any) => [e.type, e.status]).sort(), [
    ['flextime', 'rejected'],
    ['vacation', 'approved'],
  ]);
  assertContained(mine);
  assertContained(own);
  await mine.context.close();
  await own.context.close();
});
