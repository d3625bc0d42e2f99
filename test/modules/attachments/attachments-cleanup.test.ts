import { test } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createTestApp } from '../../helpers.ts';
import { runPeriodicOnce } from '../../../src/background/periodic.ts';
import attachmentsModule from '../../../src/modules/attachments/index.ts';
import { storageFor } from '../../../src/platform/storage/index.ts';
import {
  authHeaders,
  dataDir,
  makeTask,
  oneFile,
  PDF,
  PNG,
  stagingFiles,
  upload,
  waitUntilSettled,
} from './support.ts';

// The orphan sweep through the real local store: files on disk, records in PostgreSQL.
const dir = await dataDir();
const t = await createTestApp({ dataDir: dir });
const other = await t.newTenant();
const store = storageFor(t.app.config);
const DAY = 24 * 3600_000;
const blobFile = (key: string) => path.join(dir, 'blobs', key.slice(0, 2), key.slice(2, 4), key);
const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );
/** Makes a file look last written `days` ago. */
const age = (file: string, days: number) => {
  const then = new Date(Date.now() - days * DAY);
  return utimes(file, then, then);
};
const sweep = () => runPeriodicOnce(t.db.db, attachmentsModule.periodic!, new Date(), { config: t.app.config });

async function attach(name: string, data: Buffer | string, tenant = t.tenant) {
  const res = await upload(t, `/tasks/${await makeTask(t, tenant)}/attachments`, oneFile(name, data), { tenant });
  assert.equal(res.status, 201, res.text);
  return waitUntilSettled(t, res.body.data.id, tenant);
}

const remove = async (id: number, tenant = t.tenant) =>
  assert.equal((await t.request('DELETE', `/attachments/${id}`, { tenant })).status, 204);

const deletedDaysAgo = (id: number, days: number, companyId = t.tenant.companyId) =>
  t.db.db
    .updateTable('attachments')
    .set({ deleted_at: new Date(Date.now() - days * DAY).toISOString() })
    .where('company_id', '=', companyId)
    .where('id', '=', id)
    .execute();

test('the sweep deletes only unreferenced files past the grace period, and stale staged files', async () => {
  const live = await attach('live.png', PNG);
  const longGone = await attach('old.txt', 'deleted two days ago\n');
  const justGone = await attach('recent.txt', 'deleted a minute ago\n');
  await remove(longGone.id);
  await deletedDaysAgo(longGone.id, 2);
  await remove(justGone.id);
  const orphan = 'a'.repeat(64); // bytes stored by an upload whose record never committed
  const freshOrphan = 'b'.repeat(64); // an upload still on its way to its commit
  await store.put(orphan, Readable.from([Buffer.from('no record')]));
  await store.put(freshOrphan, Readable.from([Buffer.from('record not yet committed')]));
  for (const key of [live.sha256, longGone.sha256, justGone.sha256, orphan]) await age(blobFile(key), 2);
  await mkdir(path.join(dir, 'tmp'), { recursive: true });
  const stale = path.join(dir, 'tmp', 'crashed-upload.part');
  const busy = path.join(dir, 'tmp', 'upload-in-progress.part');
  await writeFile(stale, 'half a file');
  await writeFile(busy, 'being written');
  await age(stale, 2);

  const outcome = await sweep();
  assert.deepEqual(outcome['attachment-orphans'], { blobs_deleted: 2, staged_deleted: 1 });
  assert.equal(await exists(blobFile(orphan)), false);
  assert.equal(await exists(blobFile(longGone.sha256)), false);
  assert.equal(await exists(blobFile(live.sha256)), true);
  assert.equal(await exists(blobFile(justGone.sha256)), true, 'a recent delete keeps its bytes for the grace');
  assert.equal(await exists(blobFile(freshOrphan)), true, 'an unreferenced file inside the grace stays');
  assert.deepEqual(await stagingFiles(dir), ['upload-in-progress.part']);
  const download = await fetch(`${t.baseUrl}/api/v3/attachments/${live.id}/download`, {
    headers: authHeaders(t.tenant, 'read'),
  });
  assert.equal(download.status, 200);
  assert.deepEqual(Buffer.from(await download.arrayBuffer()), PNG);
  // A second run (or another process running it at once) finds nothing more to do.
  assert.deepEqual((await sweep())['attachment-orphans'], { blobs_deleted: 0, staged_deleted: 0 });
});

test('bytes shared by records stay while any of them, in any company, is live', async () => {
  const text = 'shared bytes\n';
  const ours = await attach('shared.txt', text);
  const theirs = await attach('shared.txt', text, other);
  assert.equal(ours.sha256, theirs.sha256);
  await remove(ours.id);
  await deletedDaysAgo(ours.id, 3);
  await age(blobFile(ours.sha256), 3);
  await sweep();
  assert.equal(await exists(blobFile(ours.sha256)), true, "another company's live attachment keeps the bytes");
  await remove(theirs.id, other);
  await deletedDaysAgo(theirs.id, 3, other.companyId);
  await sweep();
  assert.equal(await exists(blobFile(ours.sha256)), false);
});

test('a new upload of bytes already stored refreshes their time, so a pending record keeps them', async () => {
  const first = await attach('again.pdf', PDF);
  await remove(first.id);
  await deletedDaysAgo(first.id, 2);
  await age(blobFile(first.sha256), 2);
  const before = (await stat(blobFile(first.sha256))).mtimeMs;
  const res = await upload(t, `/tasks/${await makeTask(t)}/attachments`, oneFile('again.pdf', PDF));
  assert.equal(res.status, 201, res.text);
  assert.ok((await stat(blobFile(first.sha256))).mtimeMs > before + DAY);
  // Even without the new record the file is now inside the grace period.
  await t.db.db
    .deleteFrom('attachments')
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', res.body.data.id)
    .execute();
  await sweep();
  assert.equal(await exists(blobFile(first.sha256)), true);
});
