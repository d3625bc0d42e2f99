import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type Response } from '../../helpers.ts';
import { authHeaders, dataDir, oneFile, PDF, storedRows, upload, waitUntilSettled } from './support.ts';

/**
 * Issue 24 item 2: a plain member's personal key reaches the files of the live tasks and notes it sees, and no
 * other: a file on a note of a client or project it cannot see answers exactly like an absent file.
 */
const t = await createTestApp({ dataDir: await dataDir() });
const member = t.tenant.memberPersonId;
const ABSENT = 2147483000;

async function created(path: string, body: unknown): Promise<number> {
  const res = await t.request('POST', path, { body });
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
}
const projectType = async () =>
  (
    await t.db.db
      .selectFrom('project_types')
      .select('id')
      .where('company_id', '=', t.tenant.companyId)
      .executeTakeFirstOrThrow()
  ).id;

/** A client of `person`, a project under it, a note on each, and a verified file on each note. */
async function clientWithFiles(person: number) {
  const client = await created('/clients', { name: `Client of ${person}`, default_person_id: person });
  const project = await created('/projects', { project_type_id: await projectType(), client_id: client });
  const notes = [
    await created('/notes', { related_type: 'client', related_id: client, comments: 'On the client' }),
    await created('/notes', { related_type: 'project', related_id: project, comments: 'On the project' }),
  ];
  const files: number[] = [];
  for (const note of notes) {
    const res = await upload(t, `/notes/${note}/attachments`, oneFile('minutes.pdf', PDF));
    assert.equal(res.status, 201, res.text);
    files.push((await waitUntilSettled(t, res.body.data.id)).id);
  }
  return { client, project, notes, files };
}

const asMember = (method: string, path: string) => t.request(method, path, { key: 'personal' });
const download = (id: number) =>
  fetch(`${t.baseUrl}/api/v3/attachments/${id}/download`, { headers: authHeaders(t.tenant, 'personal') });
/** An error answer with the probed id written as ID, to compare a hidden record's with an absent one's. */
const shape = (res: Pick<Response, 'status' | 'body'>, id: number) =>
  JSON.stringify({ status: res.status, body: res.body }).replace(new RegExp(`\\b${id}\\b`, 'g'), 'ID');
const listedIds = async (query = '') =>
  ((await asMember('GET', `/attachments?limit=200${query}`)).body.data as Array<{ id: number }>).map((a) => a.id);

test("a member's personal key neither lists, reads, downloads nor deletes files on notes it cannot see", async () => {
  const hidden = await clientWithFiles(t.tenant.ownerPersonId);
  const visible = await clientWithFiles(member);

  const listed = await listedIds();
  assert.deepEqual(
    [...visible.files, ...hidden.files].filter((id) => listed.includes(id)),
    visible.files,
  );
  for (const note of hidden.notes) assert.deepEqual(await listedIds(`&related_type=note&related_id=${note}`), []);
  for (const file of visible.files) {
    assert.equal((await asMember('GET', `/attachments/${file}`)).status, 200);
    const res = await download(file);
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), PDF);
  }

  const absent = {
    read: await asMember('GET', `/attachments/${ABSENT}`),
    delete: await asMember('DELETE', `/attachments/${ABSENT}`),
  };
  assert.equal(absent.read.status, 404);
  for (const file of hidden.files) {
    assert.equal(shape(await asMember('GET', `/attachments/${file}`), file), shape(absent.read, ABSENT));
    const res = await download(file);
    assert.equal(shape({ status: res.status, body: await res.json() }, file), shape(absent.read, ABSENT));
    assert.equal(shape(await asMember('DELETE', `/attachments/${file}`), file), shape(absent.delete, ABSENT));
  }
  const rows = (await storedRows(t)).filter((row) => hidden.files.includes(row.id));
  assert.deepEqual(
    rows.map((row) => row.deleted_at),
    [null, null],
    'the files the member could not see are still there',
  );
  assert.equal((await t.request('GET', `/attachments/${hidden.files[0]}`, { key: 'personalAdmin' })).status, 200);
});

test('an upload to a note the member cannot see is refused like one to an absent note', async () => {
  const hidden = await clientWithFiles(t.tenant.ownerPersonId);
  const refused = await upload(t, `/notes/${hidden.notes[0]}/attachments`, oneFile('x.pdf', PDF), { key: 'personal' });
  const absent = await upload(t, `/notes/${ABSENT}/attachments`, oneFile('x.pdf', PDF), { key: 'personal' });
  assert.equal(refused.status, 400);
  assert.equal(shape(refused, hidden.notes[0]!), shape(absent, ABSENT));
});

test("a file whose note or task was deleted is out of the member's reach", async () => {
  const mine = await clientWithFiles(member);
  const task = await created('/tasks', { title: 'Task with a file', client_id: mine.client });
  const res = await upload(t, `/tasks/${task}/attachments`, oneFile('task.pdf', PDF));
  assert.equal(res.status, 201, res.text);
  const taskFile = res.body.data.id;
  assert.equal((await asMember('GET', `/attachments/${taskFile}`)).status, 200);
  assert.equal((await t.request('DELETE', `/notes/${mine.notes[0]}`)).status, 204);
  assert.equal((await t.request('DELETE', `/tasks/${task}`)).status, 204);
  for (const file of [mine.files[0]!, taskFile]) {
    assert.equal((await asMember('GET', `/attachments/${file}`)).status, 404);
    assert.equal((await download(file)).status, 404);
    assert.equal((await asMember('DELETE', `/attachments/${file}`)).status, 404);
  }
  const listed = await listedIds();
  assert.ok(!listed.includes(mine.files[0]!) && !listed.includes(taskFile));
  assert.ok(listed.includes(mine.files[1]!), "the file on the project's note is still the member's");
});
