import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

// Without SMTP_URL nothing is sent: the mails stay in the outbox as logged and no sender job is queued.
const t = await createTestApp({ smtpUrl: undefined });

test('without SMTP the mails are logged in the outbox with the note, and no job is queued', async () => {
  const client = await t.db.db
    .insertInto('clients')
    .values({ company_id: t.tenant.companyId, name: 'Quiet Ltd', status: 'active' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db.db
    .insertInto('contacts')
    .values({ company_id: t.tenant.companyId, client_id: client.id, name: 'Q', email: 'q@quiet.example' } as never)
    .execute();
  const res = await t.request('POST', `/clients/${client.id}/emails`, {
    body: { subject: 'Hello {{client.name}}', body: '<p>Hi <b>there</b></p>', format: 'html' },
  });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.data.job_id, null);
  assert.deepEqual(
    res.body.data.recipients.map((r: any) => [r.email, r.status, r.subject]),
    [['q@quiet.example', 'logged', 'Hello Quiet Ltd']],
  );
  const rows = await t.db.db
    .selectFrom('mail_outbox')
    .select(['status', 'subject', 'html', 'tries'])
    .where('company_id', '=', t.tenant.companyId)
    .where('recipient', '=', 'q@quiet.example')
    .execute();
  assert.deepEqual(rows, [{ status: 'logged', subject: 'Hello Quiet Ltd', html: '<p>Hi <b>there</b></p>', tries: 0 }]);
  const jobs = await t.db.db
    .selectFrom('jobs')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('type', '=', 'client_email_send')
    .execute();
  assert.equal(jobs.length, 0);
});
