import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { makeInvoice, waitForJobState } from '../invoice-documents/fixtures.ts';
import { headerOf, mimeParts, startSmtp } from '../invoice-documents/smtp.ts';

const smtp = await startSmtp();
const t = await createTestApp({ smtpUrl: smtp.url });

const finished = (job: any) => job.status === 'finished' || job.status === 'failed';
const subjectOf = (raw: string) => headerOf(raw.split(/\r?\n\r?\n/, 1)[0]!, 'Subject');
/** Quoted-printable decoded as UTF-8 bytes (nodemailer encodes text parts that way). */
const decodeQp = (text: string) =>
  Buffer.from(
    text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');
/** A part of the given type, looking inside nested multiparts (text and HTML alternatives beside the PDF). */
function partOf(raw: string, type: string): string | undefined {
  for (const part of mimeParts(raw)) {
    const contentType = headerOf(part.head, 'Content-Type') ?? '';
    if (contentType.startsWith('multipart/')) {
      const inner = partOf(`${part.head}\r\n\r\n${part.body.toString()}`, type);
      if (inner !== undefined) return inner;
    } else if (contentType.startsWith(type)) {
      const qp = headerOf(part.head, 'Content-Transfer-Encoding')?.toLowerCase() === 'quoted-printable';
      return qp ? decodeQp(part.body.toString()) : part.body.toString('utf8');
    }
  }
  return undefined;
}

/** Sends the invoice and answers the one mail its contact received. */
async function sendAndReceive(spec: Parameters<typeof makeInvoice>[2]) {
  const invoice = await makeInvoice(t, t.tenant, spec);
  const res = await t.request('POST', `/invoices/${invoice.id}/send`, { headers: { 'if-match': invoice.etag } });
  assert.equal(res.status, 202, res.text);
  const job = await waitForJobState(t, res.body.data.job_id, finished);
  assert.equal(job.status, 'finished', job.error);
  const mails = smtp.received.filter((m) => m.to.includes(spec!.primary_contact_email!));
  assert.equal(mails.length, 1);
  return { invoice, mail: mails[0]! };
}

async function makeDefault(body: Record<string, unknown>) {
  const res = await t.request('POST', '/content-templates', {
    body: { name: 'Invoice mail', type: 'invoice_email', is_default: true, ...body },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

test("the company's default invoice_email template gives the mail its subject and body, in the invoice's language", async () => {
  await makeDefault({
    rows: [
      {
        locale: 'en',
        subject: 'Invoice {{invoice.number}} from {{company.name}}',
        body: 'Hello {{client.name}}, {{invoice.due_amount}} is due on {{invoice.due_date}} (ref {{invoice.reference_number}}). {{seller.name}}',
      },
      { locale: 'fi', subject: 'Lasku {{invoice.number}}', body: 'Summa {{invoice.total}}' },
    ],
  });
  const { invoice, mail } = await sendAndReceive({ primary_contact_email: 'tmpl-en@buyer.example' });
  assert.equal(subjectOf(mail.raw), `Invoice A-${invoice.clientId} from Test Co`);
  assert.equal(
    partOf(mail.raw, 'text/plain'),
    'Hello Buyer Corp, 1,360.73 EUR is due on 2026-12-04 (ref 1234561). Seller Ltd',
  );
  assert.ok(partOf(mail.raw, 'application/pdf'), 'the PDF is still attached');
  const outbox = await t.db.db
    .selectFrom('mail_outbox')
    .select(['subject', 'body'])
    .where('company_id', '=', t.tenant.companyId)
    .where('recipient', '=', 'tmpl-en@buyer.example')
    .executeTakeFirstOrThrow();
  assert.equal(outbox.subject, `Invoice A-${invoice.clientId} from Test Co`);

  const fi = await sendAndReceive({ primary_contact_email: 'tmpl-fi@buyer.example', locale_code: 'fi' });
  assert.equal(subjectOf(fi.mail.raw), `Lasku A-${fi.invoice.clientId}`);
  assert.match(partOf(fi.mail.raw, 'text/plain')!, /^Summa 1\u00a0360,73 EUR$/);

  const de = await sendAndReceive({ primary_contact_email: 'tmpl-de@buyer.example', locale_code: 'de' });
  assert.equal(
    subjectOf(de.mail.raw),
    `Invoice A-${de.invoice.clientId} from Test Co`,
    'no de row: the default locale',
  );
});

test('an HTML template escapes the values it shows', async () => {
  await makeDefault({
    format: 'html',
    rows: [{ locale: 'en', subject: 'Invoice for {{client.name}}', body: '<p>Dear <b>{{client.name}}</b></p>' }],
  });
  const { mail } = await sendAndReceive({
    primary_contact_email: 'tmpl-html@buyer.example',
    client_name: 'Evil <script> & Co',
  });
  assert.equal(subjectOf(mail.raw), 'Invoice for Evil <script> & Co');
  assert.equal(partOf(mail.raw, 'text/html'), '<p>Dear <b>Evil &lt;script&gt; &amp; Co</b></p>');
  assert.equal(partOf(mail.raw, 'text/plain'), 'Dear Evil <script> & Co');
});

test('a value filled into a link of an HTML template cannot make it a javascript: URL', async () => {
  await makeDefault({
    format: 'html',
    rows: [{ locale: 'en', subject: 'Invoice', body: '<p><a href="{{client.name}}">Pay {{invoice.number}}</a></p>' }],
  });
  const { invoice, mail } = await sendAndReceive({
    primary_contact_email: 'tmpl-link@buyer.example',
    client_name: 'javascript:alert(document.domain)',
  });
  assert.equal(
    partOf(mail.raw, 'text/html'),
    `<p><a rel="noopener noreferrer nofollow">Pay A-${invoice.clientId}</a></p>`,
  );
  assert.equal(partOf(mail.raw, 'text/plain'), `Pay A-${invoice.clientId}`);
});

test('without an active default template the built-in text goes out', async () => {
  const list = await t.request('GET', '/content-templates?type=invoice_email&status=active');
  for (const tmpl of list.body.data)
    assert.equal(
      (await t.request('PATCH', `/content-templates/${tmpl.id}`, { body: { status: 'inactive' } })).status,
      200,
    );
  const { invoice, mail } = await sendAndReceive({ primary_contact_email: 'builtin@buyer.example' });
  assert.equal(subjectOf(mail.raw), `Invoice A-${invoice.clientId} - Seller Ltd`);
  assert.match(partOf(mail.raw, 'text/plain')!, /Amount due: 1,360\.73 EUR/);
});
