import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { createTestApp, type TenantFixture } from '../../helpers.ts';

/** An app whose data dir (where the local drive lives) is a fresh temporary folder, removed afterwards. */
export async function documentsKit(prefix: string) {
  const dataDir = await mkdtemp(path.join(tmpdir(), prefix));
  after(() => rm(dataDir, { recursive: true, force: true }));
  const t = await createTestApp({ dataDir });

  async function created(pathname: string, body: unknown, tenant?: TenantFixture): Promise<any> {
    const res = await t.request('POST', pathname, { body, tenant });
    assert.equal(res.status, 201, res.text);
    return res.body.data;
  }
  const newClient = async (name = 'Acme', tenant?: TenantFixture): Promise<number> =>
    (await created('/clients', { name }, tenant)).id;
  const storedFolders = (clientId: number) =>
    t.db.db
      .selectFrom('folders')
      .select(['id', 'parent_id', 'name', 'drive_path'])
      .where('company_id', '=', t.tenant.companyId)
      .where('client_id', '=', clientId)
      .orderBy('id')
      .execute();
  return { t, dataDir, created, newClient, storedFolders };
}

export const TEMPLATE = {
  name: 'Accounting client',
  folders: [{ name: 'Contracts' }, { name: 'Reports', children: [{ name: '2026', children: [{ name: 'Q1' }] }] }],
};
