import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { TenantFixture } from '../../helpers.ts';
import { documentsKit, TEMPLATE } from './support.ts';

const { t, dataDir, created, newClient, storedFolders } = await documentsKit('docs-drive-');

/** A fresh company with its drive switched on before its first request (so no cached key holds the old features). */
async function driveTenant(): Promise<TenantFixture> {
  const tenant = await t.newTenant({ name: 'Drive Co' });
  await t.db.db
    .updateTable('companies')
    .set({ features: sql`features || '{"drive": true}'` })
    .where('id', '=', tenant.companyId)
    .execute();
  return tenant;
}

const isDirectory = async (...parts: string[]) => (await stat(path.join(dataDir, 'drive', ...parts))).isDirectory();

test('documents-folder creates the client folder tree in the local drive', async () => {
  const tenant = await driveTenant();
  const template = await created('/folder-templates', TEMPLATE, tenant);
  const client = await newClient('Drive client', tenant);
  const put = await t.request('PUT', `/clients/${client}/folder-template`, {
    tenant,
    body: { folder_template_id: template.id },
  });
  assert.equal(put.status, 200, put.text);
  const res = await t.request('POST', `/clients/${client}/documents-folder`, { tenant, key: 'write' });
  assert.equal(res.status, 201, res.text);
  const root = put.body.data.root;
  assert.deepEqual(res.body.data, {
    folder_id: root.id,
    folder_url: `/api/v3/folders/${root.id}`,
    path: `clients/${client}`,
    skipped: false,
  });
  assert.ok(await isDirectory(tenant.companyId, 'clients', String(client), 'Reports', '2026', 'Q1'));
  assert.ok(await isDirectory(tenant.companyId, 'clients', String(client), 'Contracts'));
  const stored = await t.db.db
    .selectFrom('folders')
    .select(['name', 'drive_path'])
    .where('company_id', '=', tenant.companyId)
    .where('client_id', '=', client)
    .orderBy('id')
    .execute();
  assert.deepEqual(
    stored.map((r) => r.drive_path),
    [
      `clients/${client}`,
      `clients/${client}/Contracts`,
      `clients/${client}/Reports`,
      `clients/${client}/Reports/2026`,
      `clients/${client}/Reports/2026/Q1`,
    ],
  );

  // A folder added later is made by the next run, which answers skipped: the client's folder was there.
  const extra = await created('/folders', { client_id: client, name: 'Invoices' }, tenant);
  const again = await t.request('POST', `/clients/${client}/documents-folder`, { tenant });
  assert.equal(again.status, 201, again.text);
  assert.equal(again.body.data.skipped, true);
  assert.equal(again.body.data.folder_id, root.id);
  assert.ok(await isDirectory(tenant.companyId, 'clients', String(client), 'Invoices'));
  const read = await t.request('GET', `/folders/${extra.id}`, { tenant });
  assert.equal(read.body.data.drive_path, `clients/${client}/Invoices`);
});

test('documents-folder without a template makes the root only; unknown clients are 404', async () => {
  const tenant = await driveTenant();
  const client = await newClient('Plain client', tenant);
  const res = await t.request('POST', `/clients/${client}/documents-folder`, { tenant });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.body.data.skipped, false);
  assert.ok(await isDirectory(tenant.companyId, 'clients', String(client)));
  const missing = await t.request('POST', '/clients/2147483647/documents-folder', { tenant });
  assert.equal(missing.status, 404);
  const foreign = await t.request('POST', `/clients/${client}/documents-folder`);
  assert.equal(foreign.status, 404);
  const readKey = await t.request('POST', `/clients/${client}/documents-folder`, { tenant, key: 'read' });
  assert.equal(readKey.status, 403);
});

test('documents-folder answers DRIVE_NOT_CONNECTED while the drive is off, and writes nothing', async () => {
  const client = await newClient('Driveless');
  const res = await t.request('POST', `/clients/${client}/documents-folder`);
  assert.equal(res.status, 409, res.text);
  assert.equal(res.body.error.code, 'DRIVE_NOT_CONNECTED');
  assert.deepEqual(await storedFolders(client), []);
  await assert.rejects(stat(path.join(dataDir, 'drive', t.tenant.companyId)));
});

test('documents-folder answers FOLDER_PROVISION_FAILED when the drive cannot create the folder', async () => {
  const tenant = await driveTenant();
  const client = await newClient('Blocked client', tenant);
  // A file where the client's directory must go.
  await mkdir(path.join(dataDir, 'drive', tenant.companyId, 'clients'), { recursive: true });
  await writeFile(path.join(dataDir, 'drive', tenant.companyId, 'clients', String(client)), 'not a directory');
  const res = await t.request('POST', `/clients/${client}/documents-folder`, { tenant });
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error.code, 'FOLDER_PROVISION_FAILED');
  assert.equal(res.body.error.details.path, `clients/${client}`);
  // The records made on the way (the root folder) are rolled back with the request.
  const rows = await t.db.db
    .selectFrom('folders')
    .select('id')
    .where('company_id', '=', tenant.companyId)
    .where('client_id', '=', client)
    .execute();
  assert.deepEqual(rows, []);
});
