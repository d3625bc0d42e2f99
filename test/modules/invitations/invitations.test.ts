import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { headerOf, startSmtp } from '../invoice-documents/smtp.ts';
import { as, cookieFrom, makeAccount, sessionFor, signIn, uniqueEmail } from '../../support/sessions.ts';
import { accept, inspect, mailTo, textOf, tokenOf } from './support.ts';

const smtp = await startSmtp();
const t = await createTestApp({ publicUrl: 'https://app.example.test' }, { SMTP_URL: smtp.url });
const owner = await sessionFor(t, { role: 'owner' });

const invite = (session: typeof owner, body: Record<string, unknown>) =>
  t.request('POST', '/invitations', { ...as(session), body });

test('invite end to end: the mail over SMTP, inspect, accept signs in, the new password signs in, the link is spent', async () => {
  const email = uniqueEmail('invitee');
  const res = await invite(owner, { email, name: 'Ivy', surname: 'Invitee', role: 'admin' });
  assert.equal(res.status, 201, res.text);
  const invitation = res.body.data;
  assert.equal(invitation.status, 'pending');
  assert.equal(invitation.role, 'admin');
  assert.equal(invitation.email, email);
  const days = (Date.parse(invitation.expires_at) - Date.parse(invitation.created_at)) / 86_400_000;
  assert.ok(Math.abs(days - 7) < 0.01, `valid 7 days: ${days}`);
  const member = await t.request('GET', `/members/${invitation.member_id}`);
  assert.equal(member.body.data.status, 'pending');
  assert.equal(member.body.data.role, 'member', 'the role is given on acceptance');

  const mail = await mailTo(smtp.received, email);
  assert.equal(headerOf(mail.raw, 'Subject'), 'You are invited to Test Co');
  assert.match(textOf(mail), /within 7 days/);
  const token = tokenOf(mail);
  const stored = await t.db.db
    .selectFrom('invitations')
    .select('token_hash')
    .where('id', '=', invitation.id)
    .executeTakeFirstOrThrow();
  assert.equal(stored.token_hash.length, 32, 'only the SHA-256 is stored');
  assert.ok(!stored.token_hash.equals(Buffer.from(token, 'base64url')));
  const kept = await t.db.db
    .selectFrom('mail_outbox')
    .select(['status', 'body'])
    .where('recipient', '=', email)
    .executeTakeFirstOrThrow();
  assert.equal(kept.status, 'sent');
  assert.ok(!kept.body.includes(token), 'the sent mail is kept without its link');

  const seen = await inspect(t, token);
  assert.equal(seen.status, 200, seen.text);
  assert.deepEqual(seen.body.data, {
    company: { id: t.tenant.companyId, name: 'Test Co' },
    email,
    name: 'Ivy',
    surname: 'Invitee',
    has_account: false,
  });

  const done = await accept(t, { token, password: 'a brand new passphrase', name: 'Ivy', surname: 'Inv' });
  assert.equal(done.status, 201, done.text);
  cookieFrom(done);
  assert.equal(done.body.data.account.email, email);
  assert.deepEqual(
    done.body.data.companies.map((c: { id: string }) => c.id),
    [t.tenant.companyId],
  );
  const after = await t.request('GET', `/members/${invitation.member_id}`);
  assert.equal(after.body.data.status, 'active');
  assert.equal(after.body.data.role, 'admin');
  assert.equal(after.body.data.surname, 'Inv');
  const session = await signIn(t, email, 'a brand new passphrase');
  assert.equal((await t.request('GET', '/members', as(session))).status, 200, 'the session works on v3');

  for (const again of [await inspect(t, token), await accept(t, { token, password: 'another passphrase x' })]) {
    assert.equal(again.status, 400);
    assert.equal(again.body.error.code, 'INVALID_TOKEN');
  }
  const listed = await t.request('GET', '/invitations?status=accepted', as(owner));
  assert.equal(listed.status, 200, listed.text);
  assert.ok(listed.body.data.some((i: { id: number }) => i.id === invitation.id));
});

test('an existing account joins by its own password; a wrong one is INVALID_CREDENTIALS and leaves the link usable', async () => {
  const other = await t.newTenant({ name: 'Elsewhere Co' });
  const existing = await makeAccount(t, { tenant: other, personId: other.ownerPersonId });
  const res = await invite(owner, { email: existing.email.toUpperCase(), name: 'Ex', role: 'member' });
  assert.equal(res.status, 201, res.text);
  const token = tokenOf(await mailTo(smtp.received, existing.email.toUpperCase()));
  assert.equal((await inspect(t, token)).body.data.has_account, true);
  const wrong = await accept(t, { token, password: 'not the password at all' });
  assert.equal(wrong.status, 401);
  assert.equal(wrong.body.error.code, 'INVALID_CREDENTIALS');
  const ok = await accept(t, { token, password: existing.password });
  assert.equal(ok.status, 201, ok.text);
  assert.equal(ok.body.data.companies.length, 2, 'one account, two companies');
  await signIn(t, existing.email, existing.password);
});

test('a new password follows the rules; a refused one leaves the link usable', async () => {
  const email = uniqueEmail('rules');
  await invite(owner, { email, name: 'Rui', role: 'member' });
  const token = tokenOf(await mailTo(smtp.received, email));
  const short = await accept(t, { token, password: 'short' });
  assert.equal(short.status, 400);
  assert.equal(short.body.error.code, 'VALIDATION_ERROR');
  assert.equal((await inspect(t, token)).status, 200);
});

test('expiry: a link past its 7 days answers INVALID_TOKEN and lists as expired; a resend revives it with a new link', async () => {
  const email = uniqueEmail('late');
  const created = (await invite(owner, { email, name: 'Lee', role: 'member' })).body.data;
  const first = tokenOf(await mailTo(smtp.received, email));
  await t.db.db
    .updateTable('invitations')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('id', '=', created.id)
    .execute();
  const late = await accept(t, { token: first, password: 'a fine passphrase' });
  assert.equal(late.body.error.code, 'INVALID_TOKEN');
  const expired = await t.request('GET', '/invitations?status=expired', as(owner));
  assert.ok(expired.body.data.some((i: { id: number }) => i.id === created.id));

  const resent = await t.request('POST', `/invitations/${created.id}/resend`, as(owner));
  assert.equal(resent.status, 200, resent.text);
  assert.equal(resent.body.data.status, 'pending');
  const second = tokenOf(await mailTo(smtp.received, email, 2));
  assert.notEqual(second, first);
  assert.equal((await inspect(t, first)).body.error.code, 'INVALID_TOKEN', 'the old link is dead');
  assert.equal((await accept(t, { token: second, password: 'a fine passphrase' })).status, 201);
});

test('resend replaces the link of a live invitation; inviting the same address again reuses the member', async () => {
  const email = uniqueEmail('twice');
  const a = (await invite(owner, { email, name: 'Tw', role: 'member' })).body.data;
  const first = tokenOf(await mailTo(smtp.received, email));
  const b = (await invite(owner, { email, name: 'Tw', role: 'admin' })).body.data;
  assert.equal(b.id, a.id, 'one open invitation per member');
  assert.equal(b.member_id, a.member_id);
  assert.equal(b.role, 'admin');
  const second = tokenOf(await mailTo(smtp.received, email, 2));
  assert.equal((await inspect(t, first)).body.error.code, 'INVALID_TOKEN');
  assert.equal((await inspect(t, second)).status, 200);
});

test('cancel: the link dies, the pending member becomes inactive; a second cancel or a resend is INVALID_STATUS_TRANSITION', async () => {
  const email = uniqueEmail('cancel');
  const created = (await invite(owner, { email, name: 'Cy', role: 'member' })).body.data;
  const token = tokenOf(await mailTo(smtp.received, email));
  const gone = await t.request('DELETE', `/invitations/${created.id}`, as(owner));
  assert.equal(gone.status, 204, gone.text);
  assert.equal((await inspect(t, token)).body.error.code, 'INVALID_TOKEN');
  assert.equal((await t.request('GET', `/members/${created.member_id}`)).body.data.status, 'inactive');
  for (const [method, path] of [
    ['DELETE', `/invitations/${created.id}`],
    ['POST', `/invitations/${created.id}/resend`],
  ] as const) {
    const res = await t.request(method, path, as(owner));
    assert.equal(res.status, 409, `${method} ${path}`);
    assert.equal(res.body.error.code, 'INVALID_STATUS_TRANSITION');
  }
  const cancelled = await t.request('GET', '/invitations?status=cancelled', as(owner));
  assert.ok(cancelled.body.data.some((i: { id: number }) => i.id === created.id));
});

test('a placeholder member (POST /members) is invited by person_id by an owner only; an active member is refused', async () => {
  const placeholder = await t.request('POST', '/members', { body: { name: 'Pia', email: uniqueEmail('pia') } });
  assert.equal(placeholder.status, 201, placeholder.text);
  const personId = placeholder.body.data.person_id;
  const email = uniqueEmail('placeholder');
  const admin = await sessionFor(t, { role: 'admin' });
  const byAdmin = await invite(admin, { email, name: 'Pia', role: 'member', person_id: personId });
  assert.equal(byAdmin.status, 403);
  assert.equal(byAdmin.body.error.code, 'FORBIDDEN');
  assert.equal(byAdmin.body.error.details.required_role, 'owner');
  const byOwner = await invite(owner, { email, name: 'Pia', role: 'member', person_id: personId });
  assert.equal(byOwner.status, 201, byOwner.text);
  assert.equal(byOwner.body.data.member_id, placeholder.body.data.id);
  const token = tokenOf(await mailTo(smtp.received, email));
  assert.equal((await accept(t, { token, password: 'placeholder passphrase' })).status, 201);
  assert.equal((await t.request('GET', `/members/${placeholder.body.data.id}`)).body.data.status, 'active');

  const active = await invite(owner, { email: 'mark@test.example', name: 'Mark', role: 'member' });
  assert.equal(active.status, 400);
  assert.equal(active.body.error.details.reason, 'ALREADY_MEMBER');
  const unknown = await invite(owner, { email, name: 'X', role: 'member', person_id: 2147483000 });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'INVALID_PERSON');
});

test('an admin session may invite; a plain member session is refused by tier; bad input is 400', async () => {
  const admin = await sessionFor(t, { role: 'admin' });
  const email = uniqueEmail('by-admin');
  assert.equal((await invite(admin, { email, name: 'Ad', role: 'admin' })).status, 201);
  assert.equal((await t.request('GET', '/invitations', as(admin))).status, 200);
  const member = await sessionFor(t, { role: 'member' });
  for (const res of [
    await invite(member, { email, name: 'M', role: 'member' }),
    await t.request('GET', '/invitations', as(member)),
  ]) {
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'FORBIDDEN');
  }
  for (const body of [
    { email, name: 'O', role: 'owner' },
    { email: 'nope', name: 'O', role: 'member' },
    { email, role: 'member' },
  ]) {
    const res = await invite(owner, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  }
});

test('API keys are refused with MANAGEMENT_UI_ONLY on every invitation route; other tenants get 404', async () => {
  const email = uniqueEmail('keys');
  const created = (await invite(owner, { email, name: 'K', role: 'member' })).body.data;
  for (const [method, path, body] of [
    ['GET', '/invitations', undefined],
    ['POST', '/invitations', { email, name: 'K', role: 'member' }],
    ['POST', `/invitations/${created.id}/resend`, undefined],
    ['DELETE', `/invitations/${created.id}`, undefined],
  ] as const) {
    const keys = method === 'GET' ? (['admin'] as const) : (['admin', 'write', 'personalAdmin'] as const);
    for (const key of keys) {
      const res = await t.request(method, path, { key, body });
      assert.equal(res.status, 403, `${method} ${path} ${key}`);
      assert.equal(res.body.error.code, 'MANAGEMENT_UI_ONLY');
    }
  }
  const other = await t.newTenant({ name: 'Other Co' });
  const stranger = await sessionFor(t, { tenant: other, role: 'owner' });
  for (const [method, path] of [
    ['POST', `/invitations/${created.id}/resend`],
    ['DELETE', `/invitations/${created.id}`],
  ] as const) {
    const res = await t.request(method, path, { ...as(stranger), tenant: other });
    assert.equal(res.status, 404, `${method} ${path}`);
    assert.equal(res.body.error.code, 'NOT_FOUND');
  }
  const list = await t.request('GET', '/invitations', { ...as(stranger), tenant: other });
  assert.deepEqual(list.body.data, []);
  assert.equal((await inspect(t, tokenOf(await mailTo(smtp.received, email)))).status, 200, 'still pending');
});

test('CSRF: session writes without the header are refused; the link routes refuse another site', async () => {
  const headers = { cookie: owner.cookie };
  const res = await t.request('POST', '/invitations', {
    key: null,
    headers,
    body: { email: uniqueEmail(), name: 'C', role: 'member' },
  });
  assert.equal(res.status, 403);
  assert.equal(res.body.error.code, 'CSRF_REJECTED');
  const cross = await t.request('POST', '/auth/invitations/inspect', {
    key: null,
    company: null,
    body: { token: 'x'.repeat(43) },
    headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
  });
  assert.equal(cross.status, 403);
  assert.equal(cross.body.error.code, 'CSRF_REJECTED');
});

test('bad tokens answer INVALID_TOKEN alike and are throttled per address', async () => {
  for (const token of ['not-a-token', 'A'.repeat(43)]) {
    const res = await inspect(t, token);
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'INVALID_TOKEN');
  }
  let last;
  for (let i = 0; i < 30; i++) last = await inspect(t, 'B'.repeat(43));
  assert.equal(last!.status, 429, 'the 31st bad link from one address in the window');
  assert.equal(last!.body.error.code, 'RATE_LIMIT_EXCEEDED');
  assert.ok(last!.headers.get('retry-after'));
  await t.db.db.deleteFrom('auth_throttle').where('bucket', 'like', 'invitation:%').execute();
});
