import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { headerOf, mimeParts, startSmtp } from '../invoice-documents/smtp.ts';
import { waitForJobState } from '../invoice-documents/fixtures.ts';

/** Placeholders inside attributes: the values are filled before the one HTML policy runs, on the mail and the note. */
const smtp = await startSmtp();
const t = await createTestApp({ smtpUrl: smtp.url });

const HOSTILE_NAMES = [
  'javascript:alert(document.cookie)',
  ' JaVaScRiPt:alert(1)',
  'jav\tascript:alert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'vbscript:msgbox(1)',
];

/** Every link in the markup goes to http(s) or mailto; a hostile name may remain as text (harmless), never as a URL. */
function assertSafeLinks(where: string, html: string): void {
  const hrefs = [...html.matchAll(/\b(?:href|src|action)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi)].map((m) => m[1]!);
  for (const href of hrefs) assert.match(href, /^["']?(https?:\/\/|mailto:)/, `${where}: ${html}`);
}

async function clientNamed(name: string, email: string) {
  const client = await t.db.db
    .insertInto('clients')
    .values({ company_id: t.tenant.companyId, name, status: 'active' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await t.db.db
    .insertInto('contacts')
    .values({ company_id: t.tenant.companyId, client_id: client.id, name: 'Ann', email } as never)
    .execute();
  return client.id;
}

const decodeQp = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
const htmlOf = (raw: string) =>
  decodeQp(
    mimeParts(raw)
      .find((p) => headerOf(p.head, 'Content-Type')?.startsWith('text/html'))!
      .body.toString(),
  );

/** Sends, waits for the sender job, and answers what went out and what was stored. */
async function sendTo(name: string, email: string, body: Record<string, unknown>) {
  const clientId = await clientNamed(name, email);
  const res = await t.request('POST', `/clients/${clientId}/emails`, { body });
  assert.equal(res.status, 201, res.text);
  const job = await waitForJobState(t, res.body.data.job_id, (j) => j.status !== 'running' && j.attempts >= 1);
  assert.equal(job.status, 'finished', job.error);
  const [mail, ...more] = smtp.received.filter((m) => m.to.includes(email));
  assert.equal(more.length, 0);
  const outbox = await t.db.db
    .selectFrom('mail_outbox')
    .select(['html'])
    .where('company_id', '=', t.tenant.companyId)
    .where('recipient', '=', email)
    .executeTakeFirstOrThrow();
  const note = await t.db.db
    .selectFrom('notes')
    .select(['comments', 'type'])
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', res.body.data.note_id)
    .executeTakeFirstOrThrow();
  return { html: htmlOf(mail!.raw), stored: outbox.html!, note };
}

test('a template link filled with a javascript: client name: the mail, the outbox and the email note carry no such URL', async () => {
  const created = await t.request('POST', '/content-templates', {
    body: {
      name: 'Portal',
      type: 'client_email',
      format: 'html',
      rows: [
        {
          locale: 'en',
          subject: 'Your portal',
          body: '<p><a href="{{client.name}}" title="{{client.name}}">Open {{client.name}}</a></p>',
        },
      ],
    },
  });
  assert.equal(created.status, 201, created.text);
  for (const [i, name] of HOSTILE_NAMES.entries()) {
    const { html, stored, note } = await sendTo(name, `tmpl-${i}@client.example`, {
      template_id: created.body.data.id,
    });
    assertSafeLinks(`mailed HTML for ${JSON.stringify(name)}`, html);
    assertSafeLinks(`outbox HTML for ${JSON.stringify(name)}`, stored);
    assertSafeLinks(`email note for ${JSON.stringify(name)}`, note.comments);
    assert.match(html, /<a title="[^"]*"[^>]*>Open /, 'the link text and its title stay');
    assert.equal(note.type, 'email');
    assert.match(note.comments, /rel="noopener noreferrer nofollow"/, "the notes' policy ran on the note");
  }
});

test('a safe value in a link stays a link', async () => {
  const { html, note } = await sendTo('https://portal.example/acme', 'safe@client.example', {
    subject: 'Link',
    body: '<p><a href="{{client.name}}">portal</a> <a href="mailto:{{contact.email}}">me</a></p>',
    format: 'html',
  });
  assert.match(html, /<a href="https:\/\/portal\.example\/acme" rel="noopener noreferrer nofollow">portal<\/a>/);
  assert.match(html, /href="mailto:safe@client\.example"/);
  assert.match(note.comments, /href="https:\/\/portal\.example\/acme"/);
});

test('a body given directly gets the same treatment', async () => {
  const { html, stored, note } = await sendTo('javascript:alert(1)//', 'direct@client.example', {
    subject: 'Hi {{client.name}}',
    body: '<p><a href="{{client.name}}">x</a></p>',
    format: 'html',
  });
  for (const text of [html, stored, note.comments]) assertSafeLinks('direct body', text);
  assert.match(note.comments, /<strong>Hi javascript:alert\(1\)\/\/<\/strong>/, 'the subject stays text');
});
