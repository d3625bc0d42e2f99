import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestApp, type TestApp } from '../../helpers.ts';
import { headerOf, startSmtp, textOf, type ReceivedMail } from '../invoice-documents/smtp.ts';
import { settleResets } from '../../../src/modules/sessions/sessions.resets.ts';
import { as, cookieFrom, makeAccount, newMember, signIn, uniqueEmail } from '../../support/sessions.ts';

const smtp = await startSmtp();
const t = await createTestApp({ publicUrl: 'https://app.example.test' }, { SMTP_URL: smtp.url });
const anonymous = { key: null, company: null } as const;

const requestReset = (app: TestApp, email: string) =>
  app.request('POST', '/auth/password-resets', { ...anonymous, body: { email } });
const complete = (token: string, password: string) =>
  t.request('POST', '/auth/password-resets/complete', { ...anonymous, body: { token, password } });

async function mailTo(email: string, count = 1): Promise<ReceivedMail[]> {
  for (let i = 0; i < 100; i++) {
    await settleResets();
    const mails = smtp.received.filter((m) => m.to.includes(email));
    if (mails.length >= count) return mails;
    await sleep(50);
  }
  throw new Error(`no mail to ${email}`);
}

const tokenOf = (mail: ReceivedMail) => {
  const match = /^https:\/\/app\.example\.test\/reset-password#token=([A-Za-z0-9_-]{43})$/m.exec(textOf(mail));
  assert.ok(match, `the mail carries the link: ${textOf(mail)}`);
  return match[1]!;
};

test('reset end to end: the mail over SMTP carries a link whose token signs in once and ends the other sessions', async () => {
  const { email, password, accountId } = await makeAccount(t, { personId: await newMember(t, 'member') });
  const before = await signIn(t, email, password);
  const res = await requestReset(t, email.toUpperCase());
  assert.equal(res.status, 202);
  assert.deepEqual(res.body, { data: { status: 'accepted' } });
  const [mail] = await mailTo(email);
  assert.equal(headerOf(mail!.raw, 'Subject'), 'Reset your password');
  assert.match(textOf(mail!), /within 30 minutes/);
  const token = tokenOf(mail!);

  const done = await complete(token, 'my recovered passphrase');
  assert.equal(done.status, 201, done.text);
  cookieFrom(done);
  assert.equal(done.body.data.account.id, accountId);
  assert.equal(done.headers.get('cache-control'), 'no-store');
  assert.equal((await t.request('GET', '/auth/session', as(before))).status, 401, 'the old session ended');
  const row = await t.db.db
    .selectFrom('sessions')
    .select('ended_reason')
    .where('id', '=', before.id)
    .executeTakeFirst();
  assert.equal(row?.ended_reason, 'password_changed');
  const again = await complete(token, 'yet another passphrase');
  assert.equal(again.status, 400);
  assert.equal(again.body.error.code, 'INVALID_TOKEN');
  await signIn(t, email, 'my recovered passphrase');

  const kept = await t.db.db
    .selectFrom('mail_outbox')
    .select(['status', 'body', 'recipient'])
    .where('recipient', '=', email)
    .executeTakeFirstOrThrow();
  assert.equal(kept.status, 'sent');
  assert.ok(!kept.body.includes(token), 'the sent mail is kept without its link');
  const stored = await t.db.db.selectFrom('password_resets').selectAll().where('account_id', '=', accountId).execute();
  assert.equal(stored.length, 1);
  assert.ok(stored[0]!.used_at);
  assert.ok(!stored[0]!.token_hash.toString('base64url').includes(token), 'only the hash is stored');
});

test('an address without an account gets the same 202 and no mail, no reset', async () => {
  const email = uniqueEmail('nobody');
  const known = await makeAccount(t, { personId: await newMember(t, 'member') });
  const unknown = await requestReset(t, email);
  const real = await requestReset(t, known.email);
  assert.deepEqual([unknown.status, unknown.body], [real.status, real.body]);
  await mailTo(known.email);
  assert.equal(smtp.received.filter((m) => m.to.includes(email)).length, 0);
});

test('an account whose members are all inactive gets no reset mail', async () => {
  const personId = await newMember(t, 'member');
  const { email } = await makeAccount(t, { personId });
  await t.db.db
    .updateTable('members')
    .set({ status: 'inactive' })
    .where('company_id', '=', t.tenant.companyId)
    .where('person_id', '=', personId)
    .execute();
  assert.equal((await requestReset(t, email)).status, 202);
  await settleResets();
  await sleep(200);
  assert.equal(smtp.received.filter((m) => m.to.includes(email)).length, 0);
});

test('a new request voids the older link; an expired or unknown token is 400 INVALID_TOKEN', async () => {
  const { email, accountId } = await makeAccount(t, { personId: await newMember(t, 'member') });
  await requestReset(t, email);
  const [first] = await mailTo(email);
  await requestReset(t, email);
  const second = (await mailTo(email, 2))[1]!;
  assert.equal((await complete(tokenOf(first!), 'a passphrase here')).body.error.code, 'INVALID_TOKEN');
  await t.db.db
    .updateTable('password_resets')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('account_id', '=', accountId)
    .execute();
  const expired = await complete(tokenOf(second), 'a passphrase here');
  assert.equal(expired.status, 400);
  assert.equal(expired.body.error.code, 'INVALID_TOKEN');
  for (const token of ['garbage', 'A'.repeat(43)])
    assert.equal((await complete(token, 'a passphrase here')).body.error.code, 'INVALID_TOKEN', token);
});

test('a new password that breaks the rules is refused and leaves the link usable', async () => {
  const { email } = await makeAccount(t, { personId: await newMember(t, 'member') });
  await requestReset(t, email);
  const token = tokenOf((await mailTo(email))[0]!);
  const short = await complete(token, 'short');
  assert.equal(short.status, 400);
  assert.deepEqual(short.body.error.details, { reason: 'PASSWORD_LENGTH', field: 'password' });
  const same = await complete(token, email);
  assert.equal(same.body.error.details.reason, 'PASSWORD_IS_EMAIL');
  assert.equal((await complete(token, 'now a good one')).status, 201);
});

test('without SMTP_URL the reset mail is kept whole in mail_outbox (logged) for the developer', async () => {
  const local = await createTestApp();
  const { email } = await makeAccount(local, { personId: await newMember(local, 'member') });
  assert.equal((await requestReset(local, email)).status, 202);
  await settleResets();
  const kept = await local.db.db
    .selectFrom('mail_outbox')
    .select(['status', 'body', 'company_id'])
    .where('recipient', '=', email)
    .executeTakeFirstOrThrow();
  assert.equal(kept.status, 'logged');
  assert.equal(kept.company_id, local.tenant.companyId);
  assert.match(kept.body, /^http:\/\/127\.0\.0\.1:8080\/reset-password#token=[A-Za-z0-9_-]{43}$/m);
});
