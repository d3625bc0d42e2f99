import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp } from '../../helpers.ts';
import { runJobsOnce } from '../../../src/modules/jobs/index.ts';
import { loadModules } from '../../../src/modules/index.ts';
import { makeInvoice, pdfText, storedInvoice, waitForJobState } from './fixtures.ts';
import { headerOf, mimeParts, startSmtp } from './smtp.ts';

const smtp = await startSmtp();
const t = await createTestApp({ smtpUrl: smtp.url, mailFrom: 'Billing <billing@service.example>' });

const finished = (job: any) => job.status === 'finished' || job.status === 'failed';
/** Queued again after a failed attempt (attempts counts the runs started). */
const waiting = (job: any) => job.status === 'queued' && job.attempts >= 1;
/** One poll of a job runner, as `npm run worker` runs it, with the app's mail settings. */
const poll = () => runJobsOnce(t.db.db, loadModules().jobs, undefined, { config: t.app.config });
/** The back-off has passed (the test does not wait minutes). */
const makeDue = (jobId: number) =>
  sql`update jobs set run_after = now() where company_id = ${t.tenant.companyId} and id = ${jobId}`.execute(t.db.db);

async function send(invoice: { id: number; etag: string }) {
  const res = await t.request('POST', `/invoices/${invoice.id}/send`, { headers: { 'if-match': invoice.etag } });
  assert.equal(res.status, 202, res.text);
  return res.body.data as { job_id: number; invoice_id: number; status: string; job_url: string };
}

const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));

test("send mails the PDF to the client's primary contact, then the invoice is sent", async () => {
  const invoice = await makeInvoice(t, t.tenant, { primary_contact_email: 'first@buyer.example' });
  const accepted = await send(invoice);
  assert.deepEqual(accepted, {
    job_id: accepted.job_id,
    invoice_id: invoice.id,
    status: 'queued',
    job_url: `/api/v3/jobs/${accepted.job_id}`,
  });
  const job = await waitForJobState(t, accepted.job_id, finished);
  assert.equal(job.type, 'invoice_send');
  assert.equal(job.status, 'finished', job.error);
  assert.equal(job.attempts, 1);
  assert.equal(job.error, null);
  assert.equal(job.processed_count, 1);

  const [mail] = mailsTo('first@buyer.example');
  assert.ok(mail, 'the SMTP server received the mail');
  assert.deepEqual(mail.to, ['first@buyer.example'], 'only the primary contact, not the other contact');
  assert.equal(mail.from, 'billing@service.example');
  const [head] = mail.raw.split(/\r?\n\r?\n/, 1);
  const number = `A-${invoice.clientId}`;
  assert.equal(headerOf(head!, 'Subject'), `Invoice ${number} - Seller Ltd`);
  const parts = mimeParts(mail.raw);
  const text = parts.find((p) => headerOf(p.head, 'Content-Type')?.startsWith('text/plain'));
  assert.match(text!.body.toString(), /Amount due: 1,360\.73 EUR/);
  const pdf = parts.find((p) => headerOf(p.head, 'Content-Type')?.startsWith('application/pdf'));
  assert.ok(pdf, 'a PDF attachment');
  assert.match(
    headerOf(pdf.head, 'Content-Disposition') ?? '',
    new RegExp(`attachment; filename="?invoice-${number}.pdf`),
  );
  assert.equal(pdf.body.subarray(0, 5).toString(), '%PDF-');
  const pdfWords = (await pdfText(pdf.body)).replace(/\s+/g, ' ');
  assert.ok(pdfWords.includes('Buyer Corp') && pdfWords.includes('Total 1,360.73 EUR'), pdfWords);

  const stored = await storedInvoice(t, invoice.id);
  assert.equal(stored.status, 'sent');
  assert.ok(stored.sent_at);
  assert.notEqual(`"${stored.updated_at}"`, invoice.etag, 'the ETag moved');
  const event = await t.db.db
    .selectFrom('events')
    .select(['event', 'data'])
    .where('company_id', '=', t.tenant.companyId)
    .where('record_id', '=', invoice.id)
    .where('entity', '=', 'invoice')
    .executeTakeFirstOrThrow();
  assert.equal(event.event, 'invoice.updated');
  assert.equal((event.data as any).status, 'sent');
  assert.equal((event.data as any).sent_at, stored.sent_at);
  const outbox = await t.db.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('recipient', '=', 'first@buyer.example')
    .execute();
  assert.equal(outbox.length, 1);
  assert.equal(outbox[0]!.status, 'sent');
  assert.equal(outbox[0]!.subject, `Invoice ${number} - Seller Ltd`);
});

test("the contract's settings.invoice_recipients win over the primary contact; invalid entries are skipped", async () => {
  const invoice = await makeInvoice(t, t.tenant, {
    locale_code: 'et',
    contract_recipients: ['ap@buyer.example', 'not an address', 42, 'bounce@buyer.example', 'cfo@buyer.example'],
    primary_contact_email: 'ignored@buyer.example',
  });
  const job = await waitForJobState(t, (await send(invoice)).job_id, finished);
  assert.equal(job.status, 'finished', job.error);
  const mail = mailsTo('ap@buyer.example')[0]!;
  assert.deepEqual(mail.to.sort(), ['ap@buyer.example', 'cfo@buyer.example']);
  assert.equal(mailsTo('ignored@buyer.example').length, 0);
  const [head] = mail.raw.split(/\r?\n\r?\n/, 1);
  assert.match(headerOf(head!, 'Subject')!, new RegExp(`^Arve A-${invoice.clientId} - Seller Ltd$`));
  assert.equal((await storedInvoice(t, invoice.id)).status, 'sent', 'it went out, if not to every address');
  const outbox = await t.db.db
    .selectFrom('mail_outbox')
    .select(['recipient', 'status', 'error'])
    .where('company_id', '=', t.tenant.companyId)
    .where('recipient', 'like', 'ap@%')
    .executeTakeFirstOrThrow();
  assert.deepEqual(outbox, {
    recipient: 'ap@buyer.example, bounce@buyer.example, cfo@buyer.example',
    status: 'sent',
    error: 'refused by the SMTP server: bounce@buyer.example',
  });
});

test("addresses stored on the invoice itself come before the contract's", async () => {
  const invoice = await makeInvoice(t, t.tenant, {
    recipients: ['own@buyer.example'],
    contract_recipients: ['contract@buyer.example'],
  });
  const job = await waitForJobState(t, (await send(invoice)).job_id, finished);
  assert.equal(job.status, 'finished', job.error);
  assert.deepEqual(mailsTo('own@buyer.example')[0]!.to, ['own@buyer.example']);
  assert.equal(mailsTo('contract@buyer.example').length, 0);
});

test('a paid invoice becomes sent, keeping paid_at and paid_sum; a sent one is sent again; each gets a new sent_at', async () => {
  const created = await makeInvoice(t, t.tenant, { primary_contact_email: 'paid@buyer.example' });
  const paid = await t.request('POST', `/invoices/${created.id}/mark-paid`, { headers: { 'if-match': created.etag } });
  assert.equal(paid.status, 200, paid.text);
  const wasPaid = await storedInvoice(t, created.id);
  const job = await waitForJobState(
    t,
    (await send({ id: created.id, etag: paid.headers.get('etag')! })).job_id,
    finished,
  );
  assert.equal(job.status, 'finished', job.error);
  const stored = await storedInvoice(t, created.id);
  assert.equal(stored.status, 'sent');
  assert.ok(stored.sent_at);
  assert.deepEqual([stored.paid_at, stored.paid_sum], [wasPaid.paid_at, wasPaid.paid_sum]);
  assert.equal(stored.paid_sum, '1360.73');
  assert.equal(mailsTo('paid@buyer.example').length, 1);
  const read = (await t.request('GET', `/invoices/${created.id}`)).body.data;
  assert.deepEqual([read.status, read.paid_sum], ['sent', 1360.73]);
  // Still a paid invoice as far as mark-unpaid goes: its reverse clears the payment and leaves it sent.
  const unpaid = await t.request('POST', `/invoices/${created.id}/mark-unpaid`);
  assert.equal(unpaid.status, 200, unpaid.text);
  assert.deepEqual([unpaid.body.data.status, unpaid.body.data.paid_at, unpaid.body.data.paid_sum], ['sent', null, 0]);

  const sent = await makeInvoice(t, t.tenant, { status: 'sent', primary_contact_email: 'sent@buyer.example' });
  const again = await waitForJobState(t, (await send(sent)).job_id, finished);
  assert.equal(again.status, 'finished', again.error);
  const resent = await storedInvoice(t, sent.id);
  assert.equal(resent.status, 'sent');
  assert.ok(resent.sent_at);
  assert.equal(mailsTo('sent@buyer.example').length, 1);
});

test('a send that has no recipient is refused at request time: 409 INVOICE_NOT_SENDABLE, reason NO_RECIPIENT', async () => {
  const jobsBefore = (
    await t.db.db.selectFrom('jobs').select('id').where('company_id', '=', t.tenant.companyId).execute()
  ).length;
  const nobody = await makeInvoice(t, t.tenant, { primary_contact_email: null });
  const onlyJunk = await makeInvoice(t, t.tenant, { primary_contact_email: null, contract_recipients: ['no address'] });
  for (const invoice of [nobody, onlyJunk]) {
    for (const headers of [{}, { 'if-match': invoice.etag }] as Array<Record<string, string>>) {
      const res = await t.request('POST', `/invoices/${invoice.id}/send`, { headers });
      assert.equal(res.status, 409, res.text);
      assert.equal(res.body.error.code, 'INVOICE_NOT_SENDABLE');
      assert.deepEqual(res.body.error.details, { status: 'created', reason: 'NO_RECIPIENT' });
      assert.match(
        res.body.error.message,
        /has no recipient: set the contract's settings\.invoice_recipients or give the client a primary contact/,
      );
    }
    const stored = await storedInvoice(t, invoice.id);
    assert.deepEqual([stored.status, stored.sent_at, `"${stored.updated_at}"`], ['created', null, invoice.etag]);
  }
  const jobsAfter = (
    await t.db.db.selectFrom('jobs').select('id').where('company_id', '=', t.tenant.companyId).execute()
  ).length;
  assert.equal(jobsAfter, jobsBefore, 'nothing queued');
});

test('an SMTP refusal is retried with back-off, visible on the job, and the invoice is sent only once the mail is out', async () => {
  const invoice = await makeInvoice(t, t.tenant, { primary_contact_email: 'retry@buyer.example' });
  smtp.state.mode = 'refuse';
  const { job_id: jobId } = await send(invoice);
  const queued = await waitForJobState(t, jobId, waiting);
  assert.equal(queued.attempts, 1);
  assert.match(queued.error, /^attempt 1 of 4 failed, retrying in 60 s: .*451/);
  const wait = Date.parse(queued.next_attempt_at) - Date.now();
  assert.ok(wait > 50_000 && wait <= 60_000, `next attempt in ${wait} ms`);
  let stored = await storedInvoice(t, invoice.id);
  assert.equal(stored.status, 'created');
  assert.equal(stored.sent_at, null);

  assert.deepEqual(await poll(), [], 'not claimed before its back-off has passed');
  smtp.state.mode = 'accept';
  await makeDue(jobId);
  assert.deepEqual(await poll(), [jobId]);
  const done = (await t.request('GET', `/jobs/${jobId}`)).body.data;
  assert.equal(done.status, 'finished');
  assert.equal(done.attempts, 2);
  assert.equal(done.error, null);
  assert.equal(done.next_attempt_at, null);
  assert.equal(mailsTo('retry@buyer.example').length, 1);
  stored = await storedInvoice(t, invoice.id);
  assert.equal(stored.status, 'sent');
  assert.ok(stored.sent_at);
});

test('after the fourth refusal the job fails and names the reason, on the job and on the invoice, which stays created', async () => {
  const invoice = await makeInvoice(t, t.tenant, { primary_contact_email: 'never@buyer.example' });
  smtp.state.mode = 'refuse';
  const { job_id: jobId } = await send(invoice);
  await waitForJobState(t, jobId, waiting);
  for (const attempt of [2, 3, 4]) {
    await makeDue(jobId);
    assert.deepEqual(await poll(), [jobId], `attempt ${attempt} ran`);
  }
  smtp.state.mode = 'accept';
  const job = (await t.request('GET', `/jobs/${jobId}`)).body.data;
  assert.equal(job.status, 'failed');
  assert.equal(job.attempts, 4);
  assert.match(job.error, /did not take the invoice mail after 4 attempts: .*451/);
  assert.deepEqual(await poll(), [], 'a failed job is not retried');
  const stored = await storedInvoice(t, invoice.id);
  assert.equal(stored.status, 'created');
  assert.equal(stored.sent_at, null);
  assert.equal(mailsTo('never@buyer.example').length, 0);
  const logged = await t.db.db
    .selectFrom('mail_outbox')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .where('recipient', '=', 'never@buyer.example')
    .execute();
  assert.equal(logged.length, 0);
  // The failure shows on the invoice, not only on the job.
  const read = await t.request('GET', `/invoices/${invoice.id}`);
  assert.match(read.body.data.send_error, /did not take the invoice mail after 4 attempts: .*451/);
  assert.ok(Date.now() - Date.parse(read.body.data.send_failed_at) < 60_000);
  const event = await t.db.db
    .selectFrom('events')
    .select('data')
    .where('company_id', '=', t.tenant.companyId)
    .where('record_id', '=', invoice.id)
    .where('event', '=', 'invoice.updated')
    .executeTakeFirstOrThrow();
  assert.equal((event.data as any).send_error, read.body.data.send_error);
  // A later send that goes out clears it.
  const retried = await waitForJobState(
    t,
    (await send({ id: invoice.id, etag: read.headers.get('etag')! })).job_id,
    finished,
  );
  assert.equal(retried.status, 'finished', retried.error);
  const cleared = (await t.request('GET', `/invoices/${invoice.id}`)).body.data;
  assert.deepEqual([cleared.status, cleared.send_error, cleared.send_failed_at], ['sent', null, null]);
});

test('send needs If-Match (428, 412) and a created, sent or paid invoice (409 INVOICE_NOT_SENDABLE)', async () => {
  const jobsBefore = await t.db.db
    .selectFrom('jobs')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .execute();
  const invoice = await makeInvoice(t, t.tenant);
  const missing = await t.request('POST', `/invoices/${invoice.id}/send`);
  assert.equal(missing.status, 428);
  assert.equal(missing.body.error.code, 'PRECONDITION_REQUIRED');
  const stale = await t.request('POST', `/invoices/${invoice.id}/send`, {
    headers: { 'if-match': '"2020-01-01T00:00:00.000Z"' },
  });
  assert.equal(stale.status, 412);
  assert.equal(stale.body.error.code, 'STALE_WRITE');
  assert.equal(stale.body.error.details.current_etag, invoice.etag);
  for (const status of ['draft', 'annulled'] as const) {
    const other = await makeInvoice(t, t.tenant, { status });
    for (const headers of [{}, { 'if-match': other.etag }] as Array<Record<string, string>>) {
      const res = await t.request('POST', `/invoices/${other.id}/send`, { headers });
      assert.equal(res.status, 409, `${status} ${JSON.stringify(headers)}`);
      assert.equal(res.body.error.code, 'INVOICE_NOT_SENDABLE');
      assert.equal(res.body.error.details.status, status);
    }
  }
  const jobsAfter = await t.db.db
    .selectFrom('jobs')
    .select('id')
    .where('company_id', '=', t.tenant.companyId)
    .execute();
  assert.equal(jobsAfter.length, jobsBefore.length, 'nothing queued');
  assert.equal((await storedInvoice(t, invoice.id)).status, 'created');
});
