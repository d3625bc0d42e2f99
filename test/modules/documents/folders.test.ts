import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentsKit, TEMPLATE } from './support.ts';

const { t, created, newClient, storedFolders } = await documentsKit('docs-folders-');

test('create, read and list folder templates (preview)', async () => {
  const res = await t.request('POST', '/folder-templates', { key: 'write', body: TEMPLATE });
  assert.equal(res.status, 201, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  const template = res.body.data;
  assert.deepEqual(Object.keys(template).sort(), ['created_at', 'folders', 'id', 'name', 'updated_at']);
  assert.deepEqual(template.folders, TEMPLATE.folders);
  const row = await t.db.db.selectFrom('folder_templates').selectAll().where('id', '=', template.id).executeTakeFirst();
  assert.equal(row?.company_id, t.tenant.companyId);
  assert.deepEqual(row?.folders, TEMPLATE.folders);

  const read = await t.request('GET', `/folder-templates/${template.id}`, { key: 'write' });
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body.data, template);
  const listed = await t.request('GET', '/folder-templates?q=ACCOUNTING', { key: 'write' });
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.body.data, [template]);
  const none = await t.request('GET', '/folder-templates?q=nothing-like-it');
  assert.deepEqual(none.body.data, []);

  const other = await t.newTenant();
  const foreign = await t.request('GET', `/folder-templates/${template.id}`, { tenant: other });
  assert.equal(foreign.status, 404);
  assert.equal(foreign.body.error.code, 'NOT_FOUND');
  const readKey = await t.request('POST', '/folder-templates', { key: 'read', body: TEMPLATE });
  assert.equal(readKey.status, 403);
});

test('folder templates refuse bad trees', async () => {
  const deep = {
    name: 'a',
    children: [{ name: 'b', children: [{ name: 'c', children: [{ name: 'd', children: [{ name: 'e' }] }] }] }],
  };
  const many = Array.from({ length: 50 }, (_, i) => ({
    name: `f${i}`,
    children: Array.from({ length: 4 }, (_, j) => ({ name: `g${j}` })),
  }));
  const cases: Array<[unknown, string?]> = [
    [{ name: 'x', folders: [{ name: '..' }] }],
    [{ name: 'x', folders: [{ name: 'a/b' }] }],
    [{ name: 'x', folders: [{ name: 'a\\b' }] }],
    [{ name: 'x', folders: [{ name: 'nul\u0000' }] }],
    [{ name: 'x', folders: [{ name: ' padded' }] }],
    [{ name: 'x', folders: [{ name: 'y'.repeat(121) }] }],
    [{ name: 'x', folders: [deep] }],
    [{ name: 'x', folders: [{ name: 'a', extra: 1 }] }],
    [{ name: 'x', folders: 'Contracts' }],
    [{ name: 'x', folders: [], company_id: t.tenant.companyId }],
    [{ name: 'x' }],
    [{ name: 'x', folders: [{ name: 'Same' }, { name: 'same' }] }, 'DUPLICATE_FOLDER_NAME'],
    [{ name: 'x', folders: many }, 'TOO_MANY_FOLDERS'],
  ];
  for (const [body, reason] of cases) {
    const res = await t.request('POST', '/folder-templates', { body });
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    if (reason) assert.equal(res.body.error.details.reason, reason);
  }
  const huge = await t.request('GET', '/folder-templates/99999999999');
  assert.equal(huge.status, 400);
  const unknownFilter = await t.request('GET', '/folder-templates?color=red');
  assert.equal(unknownFilter.body.error.code, 'UNKNOWN_FILTER_FIELD');
});

test('folders: a root per client, subfolders under it, checked parents', async () => {
  const client = await newClient('Folder client');
  const contracts = await created('/folders', { client_id: client, name: 'Contracts' });
  assert.equal(contracts.path, 'Documents/Contracts');
  assert.equal(contracts.drive_path, null);
  const rows = await storedFolders(client);
  assert.deepEqual(
    rows.map((r) => [r.parent_id, r.name]),
    [
      [null, 'Documents'],
      [rows[0]!.id, 'Contracts'],
    ],
  );
  const signed = await created('/folders', { client_id: client, parent_id: contracts.id, name: 'Signed' });
  assert.equal(signed.path, 'Documents/Contracts/Signed');
  assert.equal(signed.parent_id, contracts.id);

  const dup = await t.request('POST', '/folders', { body: { client_id: client, name: 'CONTRACTS' } });
  assert.equal(dup.status, 400);
  assert.equal(dup.body.error.details.reason, 'FOLDER_EXISTS');

  const otherClient = await newClient('Other client');
  const crossClient = await t.request('POST', '/folders', {
    body: { client_id: otherClient, parent_id: contracts.id, name: 'X' },
  });
  assert.equal(crossClient.status, 400);
  assert.equal(crossClient.body.error.code, 'INVALID_PARENT');

  const other = await t.newTenant();
  const theirClient = await newClient('Theirs', other);
  const theirFolder = await created('/folders', { client_id: theirClient, name: 'Theirs' }, other);
  const foreignParent = await t.request('POST', '/folders', {
    body: { client_id: client, parent_id: theirFolder.id, name: 'X' },
  });
  assert.equal(foreignParent.body.error.code, 'INVALID_PARENT');
  const foreignClient = await t.request('POST', '/folders', { body: { client_id: theirClient, name: 'X' } });
  assert.equal(foreignClient.status, 400);
  assert.equal(foreignClient.body.error.code, 'INVALID_CLIENT');
  assert.equal((await t.request('GET', `/folders/${theirFolder.id}`)).status, 404);

  const read = await t.request('GET', `/folders/${signed.id}`);
  assert.equal(read.status, 200);
  assert.deepEqual(read.body.data, signed);
  const listed = await t.request('GET', `/folders?client_id=${client}&parent_id=${contracts.id}`);
  assert.deepEqual(listed.body.data, [signed]);
  const byName = await t.request('GET', `/folders?client_id=${client}&q=sign`);
  assert.deepEqual(
    byName.body.data.map((f: { id: number }) => f.id),
    [signed.id],
  );
  const badFilter = await t.request('GET', '/folders?client_id=abc');
  assert.equal(badFilter.status, 422);
  const badBody = await t.request('POST', '/folders', { body: { client_id: '1', name: 5 } });
  assert.equal(badBody.status, 400);
});

test('a plain member sees only the folders of clients they see', async () => {
  const hidden = await newClient('Hidden client');
  const folder = await created('/folders', { client_id: hidden, name: 'Secret' });
  const read = await t.request('GET', `/folders/${folder.id}`, { key: 'personal' });
  assert.equal(read.status, 404);
  const tree = await t.request('GET', `/clients/${hidden}/folder-tree`, { key: 'personal' });
  assert.equal(tree.status, 404);
  const write = await t.request('POST', '/folders', { key: 'personal', body: { client_id: hidden, name: 'X' } });
  assert.equal(write.body.error.code, 'INVALID_CLIENT');
});

test('PUT folder-template applies the template; GET folder-tree shows the tree', async () => {
  const template = await created('/folder-templates', TEMPLATE);
  const client = await newClient('Templated');
  await created('/folders', { client_id: client, name: 'contracts' });
  const res = await t.request('PUT', `/clients/${client}/folder-template`, {
    body: { folder_template_id: template.id },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('x-api-preview'), 'true');
  const tree = res.body.data;
  assert.equal(tree.client_id, client);
  assert.equal(tree.folder_template_id, template.id);
  assert.equal(tree.root.name, 'Documents');
  // The existing "contracts" folder matches the template's "Contracts" (case-insensitive), so it is kept as is.
  assert.deepEqual(
    tree.root.children.map((c: { name: string }) => c.name),
    ['contracts', 'Reports'],
  );
  assert.equal(tree.root.children[1].children[0].children[0].name, 'Q1');
  assert.equal((await storedFolders(client)).length, 5);

  const again = await t.request('PUT', `/clients/${client}/folder-template`, {
    body: { folder_template_id: template.id },
  });
  assert.deepEqual(again.body.data, tree);
  assert.equal((await storedFolders(client)).length, 5);
  const read = await t.request('GET', `/clients/${client}/folder-tree`);
  assert.deepEqual(read.body.data, tree);

  const cleared = await t.request('PUT', `/clients/${client}/folder-template`, { body: { folder_template_id: null } });
  assert.equal(cleared.body.data.folder_template_id, null);
  assert.equal((await storedFolders(client)).length, 5);

  const bare = await newClient('No folders');
  const empty = await t.request('GET', `/clients/${bare}/folder-tree`);
  assert.deepEqual(empty.body.data, { client_id: bare, folder_template_id: null, root: null });

  const other = await t.newTenant();
  const theirTemplate = await created('/folder-templates', TEMPLATE, other);
  const foreign = await t.request('PUT', `/clients/${client}/folder-template`, {
    body: { folder_template_id: theirTemplate.id },
  });
  assert.equal(foreign.status, 400);
  assert.equal(foreign.body.error.details.reason, 'INVALID_FOLDER_TEMPLATE');
  const missingClient = await t.request('PUT', '/clients/2147483647/folder-template', {
    body: { folder_template_id: null },
  });
  assert.equal(missingClient.status, 404);
  const badBody = await t.request('PUT', `/clients/${client}/folder-template`, { body: { folder_template_id: 'x' } });
  assert.equal(badBody.status, 400);
  // PUT replaces the setting: an empty body sets no template.
  await t.request('PUT', `/clients/${client}/folder-template`, { body: { folder_template_id: template.id } });
  const noBody = await t.request('PUT', `/clients/${client}/folder-template`, { body: {} });
  assert.equal(noBody.status, 200, noBody.text);
  assert.equal(noBody.body.data.folder_template_id, null);
  const extra = await t.request('PUT', `/clients/${client}/folder-template`, { body: { template: 1 } });
  assert.equal(extra.status, 400);
  const theirTree = await t.request('GET', `/clients/${client}/folder-tree`, { tenant: other });
  assert.equal(theirTree.status, 404);
});

test('folders nest at most 10 levels below the root', async () => {
  const client = await newClient('Deep client');
  let parent: number | undefined;
  for (let level = 1; level <= 10; level++)
    parent = (await created('/folders', { client_id: client, parent_id: parent, name: `L${level}` })).id;
  const res = await t.request('POST', '/folders', { body: { client_id: client, parent_id: parent, name: 'L11' } });
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.error.details.reason, 'FOLDER_TOO_DEEP');
  assert.equal((await storedFolders(client)).length, 11);
});
