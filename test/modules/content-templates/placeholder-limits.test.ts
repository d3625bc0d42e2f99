import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

const t = await createTestApp();

/** The request, timed from the test's side. */
async function timed(method: string, path: string, body: unknown) {
  const started = performance.now();
  const res = await t.request(method, path, { body });
  return { res, ms: performance.now() - started };
}

test('a template body of "{{" and 19,998 spaces is checked in bounded time (it backtracked cubically)', async () => {
  const crafted = `{{${' '.repeat(19_998)}`;
  const client = await t.request('POST', '/clients', { body: { name: 'Crafted mail' } });
  // Each route's first request compiles its schemas: warmed up with ordinary text, so only the check is timed.
  await t.request('POST', '/content-templates', {
    body: { name: 'Warm', type: 'client_email', rows: [{ locale: 'en', subject: 'x', body: 'y' }] },
  });
  await t.request('POST', `/clients/${client.body.data.id}/emails`, { body: { subject: 'x', body: 'y' } });
  const { res, ms } = await timed('POST', '/content-templates', {
    name: 'Crafted',
    type: 'client_email',
    rows: [{ locale: 'en', subject: `{{${' '.repeat(253)}`, body: crafted }],
  });
  assert.equal(res.status, 201, res.text.slice(0, 300));
  assert.ok(ms < 1000, `the create took ${Math.round(ms)} ms`);
  const row = await t.db.db
    .selectFrom('content_template_rows')
    .select('body')
    .where('company_id', '=', t.tenant.companyId)
    .where('template_id', '=', res.body.data.id)
    .executeTakeFirstOrThrow();
  assert.equal(row.body, crafted);

  // The same text sent for mailing (checked on the request path too) is as quick.
  const mail = await timed('POST', `/clients/${client.body.data.id}/emails`, { subject: 'x', body: crafted });
  assert.ok(mail.ms < 1000, `the mail request took ${Math.round(mail.ms)} ms`);
  // Placeholders are checked before recipients: this client has none, so the check ran and the answer is the next rule's.
  assert.equal(mail.res.status, 400, mail.res.text.slice(0, 300));
  assert.equal(mail.res.body.error.code, 'NO_RECIPIENTS');
});

test('placeholders with spaces inside the braces are still read; an over-long name is plain text', async () => {
  const spaced = await t.request('POST', '/content-templates', {
    body: {
      name: 'Spaced',
      type: 'client_email',
      rows: [{ locale: 'en', subject: 'x', body: '{{   invoice.total \n }}' }],
    },
  });
  assert.equal(spaced.status, 400, spaced.text);
  assert.equal(spaced.body.error.details.reason, 'UNKNOWN_PLACEHOLDER');
  assert.equal(spaced.body.error.details.placeholder, 'invoice.total');
  const long = await t.request('POST', '/content-templates', {
    body: {
      name: 'Long',
      type: 'client_email',
      rows: [{ locale: 'en', subject: 'x', body: `{{${'y'.repeat(201)}}}` }],
    },
  });
  assert.equal(long.status, 201, long.text);
});
