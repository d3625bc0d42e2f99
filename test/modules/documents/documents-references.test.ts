import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type Response } from '../../helpers.ts';

/**
 * Issue 24 item 2: a document's attachment_id must be a file the writing key may see; one a plain member cannot
 * see is refused exactly like an absent one (400 VALIDATION_ERROR, reason INVALID_ATTACHMENT, same message), so
 * the answer does not tell which hidden ids exist.
 */
const t = await createTestApp();
const ABSENT = 2147483000;

async function created(path: string, body: unknown): Promise<number> {
  const res = await t.request('POST', path, { body });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}

/** A file on a note of a client of `person` (the row only: no bytes are needed to name it). */
async function fileOfClientOf(person: number): Promise<{ client: number; file: number }> {
  const client = await created('/clients', { name: `Client of ${person}`, default_person_id: person });
  const note = await created('/notes', { related_type: 'client', related_id: client, comments: 'Files' });
  const row = await t.db.db
    .insertInto('attachments')
    .values({
      company_id: t.tenant.companyId,
      related_type: 'note',
      related_id: note,
      file_name: 'scan.pdf',
      content_type: 'application/pdf',
      size: 4,
      sha256: '2'.repeat(64),
      status: 'ready',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { client, file: row.id };
}

const shape = (res: Response, id: number) =>
  JSON.stringify({ status: res.status, body: res.body }).replace(new RegExp(`\\b${id}\\b`, 'g'), 'ID');

test('POST and PATCH /documents refuse an attachment the member cannot see exactly like an absent one', async () => {
  const hidden = await fileOfClientOf(t.tenant.ownerPersonId);
  const mine = await fileOfClientOf(t.tenant.memberPersonId);
  const post = (attachment_id: number) =>
    t.request('POST', '/documents', {
      key: 'personal',
      body: { client_id: mine.client, name: 'Scan', attachment_id },
    });

  const absent = await post(ABSENT);
  assert.equal(absent.status, 400);
  assert.equal(absent.body.error.code, 'VALIDATION_ERROR');
  assert.equal(absent.body.error.details.reason, 'INVALID_ATTACHMENT');
  const refused = await post(hidden.file);
  assert.equal(shape(refused, hidden.file), shape(absent, ABSENT));

  const accepted = await post(mine.file);
  assert.equal(accepted.status, 201, accepted.text);
  assert.equal(accepted.body.data.attachment_id, mine.file);
  const document = accepted.body.data.id;

  const patch = (attachment_id: number) =>
    t.request('PATCH', `/documents/${document}`, { key: 'personal', body: { attachment_id } });
  const patchAbsent = await patch(ABSENT);
  assert.equal(patchAbsent.status, 400);
  assert.equal(shape(await patch(hidden.file), hidden.file), shape(patchAbsent, ABSENT));
  const stored = await t.db.db
    .selectFrom('documents')
    .select(['attachment_id'])
    .where('company_id', '=', t.tenant.companyId)
    .where('client_id', '=', mine.client)
    .execute();
  assert.deepEqual(stored, [{ attachment_id: mine.file }], 'no document names the hidden file');

  const owner = await t.request('PATCH', `/documents/${document}`, {
    key: 'personalAdmin',
    body: { attachment_id: hidden.file },
  });
  assert.equal(owner.status, 200, 'the owner sees every file of the company');
});
