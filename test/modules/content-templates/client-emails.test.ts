import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TenantFixture } from '../../helpers.ts';
import { sql } from 'kysely';
import { headerOf, mimeParts, startSmtp } from '../invoice-documents/smtp.ts';
import { waitForJobState } from '../invoice-documents/fixtures.ts';
import { runJobsOnce } from '../../../src/modules/jobs/index.ts';
import { loadModules } from '../../../src/modules/index.ts';

const smtp = await startSmtp();
const t = await createTestApp({ smtpUrl: smtp.url, mailFrom: 'Service <service@service.example>' });

interface ContactSpec {
  name: string;
  email: string | null;
  locale_code?: string | null;
}

/** A client with the given contacts, straight in SQL; answers the client id and the contact ids. */
async function clientWith(contacts: ContactSpec[], tenant: TenantFixture = t.tenant, name = 'Acme <& Sons>') {
  const client = await t.db.db
    .insertInto('clients')
    .values({ company_id: tenant.companyId, name, status: 'active', locale_code: 'en' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids: number[] = [];
  for (const c of contacts) {
    const row = await t.db.db
      .insertInto('contacts')
      .values({ company_id: tenant.companyId, client_id: client.id, ...c } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return { clientId: client.id, contactIds: ids };
}

async function template(body: Record<string, unknown>, tenant?: TenantFixture) {
  const res = await t.request('POST', '/content-templates', { body: { type: 'client_email', ...body }, tenant });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

/** The sender job of an answer, once it has run (finished, failed, or queued again after a refusal). */
const sent = (res: { body: any }) =>
  waitForJobState(t, res.body.data.job_id, (j) => j.status !== 'running' && j.attempts >= 1);
/** One poll of a job runner, as `npm run worker` runs it, with the app's mail settings. */
const poll = () => runJobsOnce(t.db.db, loadModules().jobs, undefined, { config: t.app.config });
/** The back-off has passed (the test does not wait minutes). */
const makeDue = (jobId: number) =>
  sql`update jobs set run_after = now() where company_id = ${t.tenant.companyId} and id = ${jobId}`.execute(t.db.db);

const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));
const subjectOf = (raw: string) => headerOf(raw.split(/\r?\n\r?\n/, 1)[0]!, 'Subject');
const partOf = (raw: string, type: string) =>
  mimeParts(raw)
    .find((p) => headerOf(p.head, 'Content-Type')?.startsWith(type))
    ?.body.toString();
const decodeQp = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

const notesOf = (clientId: number) =>
  t.db.db
    .selectFrom('notes')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('related_type', '=', 'client')
    .where('related_id', '=', clientId)
    .execute();
const outboxFor = (recipient: string) =>
  t.db.db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('company_id', '=', t.tenant.companyId)
    .where('recipient', '=', recipient)
    .execute();

test('mails every contact with an e-mail, each in their locale, and logs an email note', async () => {
  const tmpl = await template({
    name: 'News',
    rows: [
      { locale: 'en', subject: 'News for {{client.name}}', body: 'Dear {{contact.name}}, from {{company.name}}' },
      { locale: 'fi', subject: 'Uutisia: {{client.name}}', body: 'Hei {{contact.name}}' },
    ],
  });
  const { clientId, contactIds } = await clientWith([
    { name: 'Anna', email: 'anna@client.example', locale_code: 'en-GB' },
    { name: 'Pekka', email: 'pekka@client.example', locale_code: 'fi_FI' },
    { name: 'Nobody', email: null },
    { name: 'Olga', email: 'olga@client.example', locale_code: 'ru' },
  ]);
  const res = await t.request('POST', `/clients/${clientId}/emails`, { key: 'write', body: { template_id: tmpl.id } });
  assert.equal(res.status, 201, res.text);
  const data = res.body.data;
  assert.equal(data.client_id, clientId);
  assert.equal(data.template_id, tmpl.id);
  assert.deepEqual(
    data.recipients.map((r: any) => [r.contact_id, r.email, r.locale, r.status]),
    [
      [contactIds[0], 'anna@client.example', 'en', 'queued'],
      [contactIds[1], 'pekka@client.example', 'fi', 'queued'],
      [contactIds[3], 'olga@client.example', 'en', 'queued'],
    ],
    'ru has no row: the default locale (en) is used',
  );
  const job = await sent(res);
  assert.equal(job.type, 'client_email_send');
  assert.equal(job.status, 'finished');
  assert.equal(job.processed_count, 3);

  const [anna] = mailsTo('anna@client.example');
  assert.ok(anna, 'the SMTP server got the mail');
  assert.equal(anna.from, 'service@service.example');
  assert.equal(subjectOf(anna.raw), 'News for Acme <& Sons>');
  assert.match(decodeQp(anna.raw), /Dear Anna, from Test Co/);
  const [pekka] = mailsTo('pekka@client.example');
  assert.match(pekka!.raw, /Hei Pekka/);
  assert.equal(mailsTo('olga@client.example').length, 1);

  const outbox = await outboxFor('pekka@client.example');
  assert.equal(outbox.length, 1);
  assert.equal(outbox[0]!.status, 'sent');
  assert.equal(outbox[0]!.subject, 'Uutisia: Acme <& Sons>');
  const notes = await notesOf(clientId);
  assert.equal(notes.length, 1);
  assert.equal(notes[0]!.id, data.note_id);
  assert.equal(notes[0]!.type, 'email');
  assert.match(notes[0]!.comments, /anna@client\.example \(queued\)/);
  assert.match(notes[0]!.comments, /News for Acme &lt;&amp; Sons&gt;/, 'the note escapes the values');
  assert.ok(!notes[0]!.comments.includes('<& Sons>'));
});

test('contact_ids pick recipients; an HTML template escapes values; idempotent retry sends once', async () => {
  const tmpl = await template({
    name: 'Html',
    format: 'html',
    rows: [{ locale: 'en', subject: 'Hi', body: '<p>Hello <b>{{client.name}}</b></p>' }],
  });
  const { clientId, contactIds } = await clientWith([
    { name: 'Ann', email: 'ann-html@client.example' },
    { name: 'Bob', email: 'bob-html@client.example' },
  ]);
  const headers = { 'idempotency-key': `mail-${clientId}` };
  const body = { template_id: tmpl.id, contact_ids: [contactIds[1]] };
  const res = await t.request('POST', `/clients/${clientId}/emails`, { headers, body });
  assert.equal(res.status, 201, res.text);
  const again = await t.request('POST', `/clients/${clientId}/emails`, { headers, body });
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  assert.deepEqual(again.body, res.body);
  await sent(res);
  assert.equal(mailsTo('ann-html@client.example').length, 0);
  const [bob, ...more] = mailsTo('bob-html@client.example');
  assert.equal(more.length, 0, 'the replay sent nothing');
  const html = decodeQp(partOf(bob!.raw, 'text/html')!);
  assert.match(html, /<b>Acme &lt;&amp; Sons&gt;<\/b>/);
  assert.match(decodeQp(partOf(bob!.raw, 'text/plain')!), /Hello Acme <& Sons>/);
  assert.equal((await notesOf(clientId)).length, 1);
});

test("subject and body given directly; without either, the company's default client_email template", async () => {
  const { clientId } = await clientWith([{ name: 'Dee', email: 'dee@client.example' }]);
  const direct = await t.request('POST', `/clients/${clientId}/emails`, {
    body: { subject: 'Quick {{client.name}}', body: 'Note to {{contact.email}}' },
  });
  assert.equal(direct.status, 201, direct.text);
  assert.equal(direct.body.data.template_id, null);
  assert.equal(direct.body.data.recipients[0].locale, null);
  assert.equal(direct.body.data.recipients[0].subject, 'Quick Acme <& Sons>');
  await sent(direct);
  assert.match(mailsTo('dee@client.example')[0]!.raw, /Note to dee@client\.example/);

  const none = await t.request('POST', `/clients/${clientId}/emails`, { body: {} });
  assert.equal(none.status, 400);
  assert.equal(none.body.error.details.reason, 'TEMPLATE_OR_TEXT');
  const def = await template({
    name: 'Default',
    is_default: true,
    rows: [{ locale: 'en', subject: 'Default!', body: 'x' }],
  });
  const used = await t.request('POST', `/clients/${clientId}/emails`, { body: {} });
  assert.equal(used.status, 201, used.text);
  assert.equal(used.body.data.template_id, def.id);
  assert.equal(used.body.data.recipients[0].subject, 'Default!');
  await t.request('PATCH', `/content-templates/${def.id}`, { body: { is_default: false } });
});

test('a refused address stays queued in the outbox and is retried with back-off; the others go out', async () => {
  const { clientId } = await clientWith([
    { name: 'Bounce', email: 'bounce@client.example' },
    { name: 'Fine', email: 'fine@client.example' },
  ]);
  const res = await t.request('POST', `/clients/${clientId}/emails`, { body: { subject: 'S', body: 'B' } });
  assert.equal(res.status, 201, res.text);
  assert.deepEqual(
    res.body.data.recipients.map((r: any) => r.status),
    ['queued', 'queued'],
  );
  const job = await sent(res);
  assert.equal(job.status, 'queued', 'queued again for a later attempt');
  assert.match(job.error, /1 mail\(s\) refused by the SMTP server, retrying in 60 s/);
  const [queued] = await outboxFor('bounce@client.example');
  assert.equal(queued!.status, 'queued');
  assert.equal(queued!.tries, 1);
  assert.match(queued!.error ?? '', /No such mailbox|550/);
  assert.equal(queued!.sent_at, null);
  assert.equal((await outboxFor('fine@client.example'))[0]!.status, 'sent');
  assert.equal(mailsTo('fine@client.example').length, 1);
  assert.match((await notesOf(clientId))[0]!.comments, /bounce@client\.example \(queued\)/);

  assert.deepEqual(await poll(), [], 'not claimed before its back-off has passed');
  for (let attempt = 2; attempt <= 5; attempt++) {
    await makeDue(job.id);
    assert.deepEqual(await poll(), [job.id], `attempt ${attempt} ran`);
  }
  const done = (await t.request('GET', `/jobs/${job.id}`)).body.data;
  assert.equal(done.status, 'failed');
  assert.match(done.error, /did not take 1 mail\(s\) after 5 tries/);
  const [failed] = await outboxFor('bounce@client.example');
  assert.equal(failed!.status, 'failed', 'kept in the outbox, not lost');
  assert.equal(failed!.tries, 5);
  assert.equal(mailsTo('fine@client.example').length, 1, 'a retry does not send the delivered mail again');
});

test('an SMTP server down at request time loses nothing: the mail commits queued and goes out on the retry', async () => {
  const { clientId } = await clientWith([{ name: 'Later', email: 'later@client.example' }]);
  smtp.state.mode = 'refuse';
  const res = await t.request('POST', `/clients/${clientId}/emails`, { body: { subject: 'Hold', body: 'on' } });
  assert.equal(res.status, 201, res.text);
  const job = await sent(res);
  assert.equal(job.status, 'queued');
  assert.equal(mailsTo('later@client.example').length, 0);
  assert.equal((await outboxFor('later@client.example'))[0]!.status, 'queued');
  assert.equal((await notesOf(clientId)).length, 1, 'the note committed with the queued mail');
  smtp.state.mode = 'accept';
  await makeDue(job.id);
  assert.deepEqual(await poll(), [job.id]);
  const done = (await t.request('GET', `/jobs/${job.id}`)).body.data;
  assert.equal(done.status, 'finished');
  assert.equal(done.attempts, 2);
  const [row] = await outboxFor('later@client.example');
  assert.equal(row!.status, 'sent');
  assert.equal(row!.tries, 2);
  assert.ok(row!.sent_at);
  assert.equal(mailsTo('later@client.example').length, 1);
});

test('the request does not wait for SMTP: the mail is committed before the sender job runs', async () => {
  const { clientId } = await clientWith([{ name: 'Fast', email: 'fast@client.example' }]);
  const res = await t.request('POST', `/clients/${clientId}/emails`, { body: { subject: 'Q', body: 'q' } });
  assert.equal(res.status, 201, res.text);
  assert.equal(typeof res.body.data.job_id, 'number');
  const rows = await outboxFor('fast@client.example');
  assert.equal(rows.length, 1, 'in the outbox as soon as the answer is out');
  await sent(res);
  assert.equal((await outboxFor('fast@client.example'))[0]!.status, 'sent');
});

test('errors: unknown client, contacts, template, recipients, placeholders; nothing is sent or logged', async () => {
  const { clientId, contactIds } = await clientWith([
    { name: 'Has', email: 'has@client.example' },
    { name: 'Lacks', email: null },
  ]);
  const other = await clientWith([{ name: 'Else', email: 'else@client.example' }]);
  const foreign = await t.newTenant();
  const theirs = await clientWith([{ name: 'Theirs', email: 'theirs@client.example' }], foreign);
  const invoiceTmpl = await template({ name: 'Inv', type: 'invoice_email' });
  const inactive = await template({
    name: 'Off',
    status: 'inactive',
    rows: [{ locale: 'en', subject: 's', body: 'b' }],
  });
  const empty = await template({ name: 'Empty' });
  const theirTmpl = await template({ name: 'Theirs', rows: [{ locale: 'en', subject: 's', body: 'b' }] }, foreign);
  const text = { subject: 'S', body: 'B' };
  const cases: Array<[number, unknown, number, string, string?]> = [
    [999999, text, 404, 'NOT_FOUND'],
    [theirs.clientId, text, 404, 'NOT_FOUND'],
    [clientId, { ...text, contact_ids: [other.contactIds[0]] }, 400, 'INVALID_CONTACT'],
    [clientId, { ...text, contact_ids: [theirs.contactIds[0]] }, 400, 'INVALID_CONTACT'],
    [clientId, { ...text, contact_ids: [contactIds[1]] }, 400, 'NO_RECIPIENTS'],
    [clientId, { template_id: invoiceTmpl.id }, 400, 'INVALID_CONTENT_TEMPLATE'],
    [clientId, { template_id: inactive.id }, 400, 'INVALID_CONTENT_TEMPLATE'],
    [clientId, { template_id: theirTmpl.id }, 400, 'INVALID_CONTENT_TEMPLATE'],
    [clientId, { template_id: empty.id }, 400, 'VALIDATION_ERROR', 'TEMPLATE_EMPTY'],
    [clientId, { template_id: inactive.id, subject: 'x' }, 400, 'VALIDATION_ERROR', 'TEMPLATE_OR_TEXT'],
    [clientId, { subject: 'only' }, 400, 'VALIDATION_ERROR', 'TEMPLATE_OR_TEXT'],
    [clientId, { subject: 'x', body: '{{invoice.total}}' }, 400, 'VALIDATION_ERROR', 'UNKNOWN_PLACEHOLDER'],
    [clientId, { ...text, extra: true }, 400, 'VALIDATION_ERROR'],
    [clientId, { ...text, contact_ids: [] }, 400, 'VALIDATION_ERROR'],
    [clientId, { ...text, contact_ids: [1e20] }, 400, 'VALIDATION_ERROR'],
    [clientId, { ...text, contact_ids: ['1'] }, 400, 'VALIDATION_ERROR'],
    [clientId, { subject: 'a\nBcc: x@y.z', body: 'b' }, 400, 'VALIDATION_ERROR'],
    [clientId, { subject: 'a', body: 'b\u0000' }, 400, 'VALIDATION_ERROR'],
    [clientId, { subject: 'a', body: 'x'.repeat(20_001) }, 400, 'VALIDATION_ERROR'],
  ];
  for (const [id, body, status, code, reason] of cases) {
    const res = await t.request('POST', `/clients/${id}/emails`, { body });
    const label = `${id} ${JSON.stringify(body).slice(0, 80)}: ${res.text}`;
    assert.equal(res.status, status, label);
    assert.equal(res.body.error.code, code, label);
    if (reason) assert.equal(res.body.error.details.reason, reason, label);
  }
  const { clientId: silent } = await clientWith([{ name: 'Mute', email: null }]);
  const nobody = await t.request('POST', `/clients/${silent}/emails`, { body: text });
  assert.equal(nobody.status, 400);
  assert.equal(nobody.body.error.code, 'NO_RECIPIENTS');
  assert.equal(mailsTo('has@client.example').length, 0);
  assert.equal((await outboxFor('has@client.example')).length, 0);
  assert.equal((await notesOf(clientId)).length, 0);
  const read = await t.request('POST', `/clients/${clientId}/emails`, { key: 'read', body: text });
  assert.equal(read.status, 403);
});

test("a plain member's personal key mails only clients it can see", async () => {
  const { clientId } = await clientWith([{ name: 'Vis', email: 'vis@client.example' }]);
  const hidden = await t.request('POST', `/clients/${clientId}/emails`, {
    key: 'personal',
    body: { subject: 's', body: 'b' },
  });
  assert.equal(hidden.status, 404, hidden.text);
  await t.db.db
    .updateTable('clients')
    .set({ default_person_id: t.tenant.memberPersonId })
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', clientId)
    .execute();
  const seen = await t.request('POST', `/clients/${clientId}/emails`, {
    key: 'personal',
    body: { subject: 's', body: 'b' },
  });
  assert.equal(seen.status, 201, seen.text);
  await sent(seen);
  const [note] = await notesOf(clientId);
  assert.equal(note!.created_by_person_id, t.tenant.memberPersonId);
});
