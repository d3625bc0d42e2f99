// The whole path in a real Chromium: an invitation mailed over SMTP is accepted, the new member creates a
// client and a contact on the screens, and only the legacy v1.0 subscribers hear of it (flat and signed); the same
// kind of client made with an API key goes to v3 subscribers only (docs/decisions/0054).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSmtp, textOf } from '../modules/invoice-documents/smtp.ts';
import { as, sessionFor } from '../support/sessions.ts';
import { startReceiver } from '../webhooks/receiver.ts';
import { deliverAll, subscribe, webhookApp } from '../webhooks/setup.ts';
import { deliverLegacy, subscribeV1 } from '../webhooks/legacy-setup.ts';
import { settleInvitationMails } from '../../src/modules/invitations/index.ts';
import { assertAccessible, assertContained, openPage } from './browser.ts';

const SECRET = 'legacy-signing-key';
const smtp = await startSmtp();
const t = await webhookApp({ SMTP_URL: smtp.url, SVC_LEGACY_WEBHOOK_SECRET: SECRET }, undefined, { web: true });
const owner = await sessionFor(t, { personId: t.tenant.ownerPersonId });
const sign = (raw: Buffer) => createHmac('sha256', SECRET).update(raw).digest('hex');

async function invitationLink(email: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    await settleInvitationMails();
    const mail = smtp.received.find((m) => m.to.includes(email));
    const link = mail && /(http\S+\/accept-invitation#token=[A-Za-z0-9_-]{43})/.exec(textOf(mail))?.[1];
    if (link) return new URL(link).pathname + new URL(link).hash;
    await sleep(50);
  }
  throw new Error(`no invitation reached ${email}`);
}

test('invited, accepted, and a client and contact made on the screens reach v1.0 subscribers only; an API key reaches v3 only', async () => {
  const v1Clients = await startReceiver('/v1/clients');
  const v1Contacts = await startReceiver('/v1/contacts');
  const v3 = await startReceiver('/v3');
  await subscribeV1(t, 'client_added', v1Clients.url);
  await subscribeV1(t, 'contact_added', v1Contacts.url);
  await subscribe(t, 'client.created', v3.url);

  const email = `legacy-flow-${process.pid}@test.example`;
  const invited = await t.request('POST', '/invitations', {
    ...as(owner),
    body: { email, name: 'Tiina', surname: 'Tamm', role: 'member' },
  });
  assert.equal(invited.status, 201, invited.text);
  const watched = await openPage(t.baseUrl);
  const { page } = watched;
  await page.goto(await invitationLink(email));
  await page.getByLabel('Password', { exact: true }).fill('a passphrase of mine');
  await page.getByLabel('Repeat the password').fill('a passphrase of mine');
  await page.getByRole('button', { name: 'Accept and sign in' }).click();
  await page.getByRole('heading', { name: 'Clients', level: 1 }).waitFor();

  await page.getByRole('button', { name: 'New client' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New client' });
  await dialog.getByLabel('Name').fill('Made On The Screen OÜ');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('heading', { name: 'Made On The Screen OÜ', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'Add contact' }).click();
  const contact = page.getByRole('dialog', { name: 'New contact' });
  await contact.getByLabel('First name').fill('Mati');
  await contact.getByLabel('Last name').fill('Kask');
  await contact.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('row', { name: /Mati Kask/ }).waitFor();
  await assertAccessible(page, 'client made on the screen');
  assertContained(watched);
  await watched.context.close();

  await deliverLegacy(t);
  await deliverAll(t);
  const [client] = await v1Clients.waitFor(1);
  const [person] = await v1Contacts.waitFor(1);
  const stored = (await t.request('GET', `/clients?q=${encodeURIComponent('Made On The Screen')}`)).body.data[0];
  // The record as GET showed it when it was created: its contact came after.
  const { contacts: later, ...now } = (await t.request('GET', `/clients/${stored.id}`)).body.data;
  const { contacts: then, ...sent } = client!.body;
  assert.deepEqual(sent, now, 'flat, as GET shows it, without the data envelope');
  assert.deepEqual([then.length, later.length], [0, 1]);
  assert.equal(client!.headers['x-webhook-signature'], sign(client!.raw));
  assert.equal(person!.body.name, 'Mati');
  assert.equal(person!.body.client_id, stored.id);
  assert.equal(person!.headers['x-webhook-signature'], sign(person!.raw));
  assert.equal(v3.received.length, 0, 'the v3 subscriber of client.created heard nothing of the screen');

  const byKey = await t.request('POST', '/clients', { body: { name: 'Made With A Key Ltd' } });
  assert.equal(byKey.status, 201, byKey.text);
  await deliverLegacy(t);
  await deliverAll(t);
  const [event] = await v3.waitFor(1);
  assert.equal(event!.body.event, 'client.created');
  assert.equal(event!.body.data.name, 'Made With A Key Ltd');
  assert.equal(v1Clients.received.length, 1, 'v1.0 heard nothing of the key');
});
