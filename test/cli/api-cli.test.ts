import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { createTestApp } from '../helpers.ts';
import { makeHome, SLOW, svc, svcJson } from './support.ts';

const t = await createTestApp();
const home = await makeHome();
const configFile = path.join(home.dir, 'config', 'svc', 'config.json');

/** The key goes in on standard input, as a user pipes it: never on the command line (ps, shell history). */
async function login(key = t.tenant.keys.admin, extra: string[] = []) {
  return svc(home, ['login', '--company', t.tenant.companyId, '--url', t.baseUrl, ...extra], {}, `${key}\n`);
}

const storedClient = (id: number) =>
  t.db.db
    .selectFrom('clients')
    .select(['name', 'deleted_at'])
    .where('company_id', '=', t.tenant.companyId)
    .where('id', '=', id)
    .executeTakeFirst();

test(
  'before login a command says how to log in (exit 2); a refused key is exit 4 and stores nothing',
  SLOW,
  async () => {
    const none = await svc(home, ['clients', 'list']);
    assert.equal(none.code, 2, none.stderr);
    assert.match(none.stderr, /^error: NOT_LOGGED_IN: no profile "default": run `svc login --company/);
    const refused = await login('svc_live_not_a_real_key_0000000000');
    assert.equal(refused.code, 4, refused.stderr);
    assert.match(refused.stderr, /^error: (UNAUTHORIZED|INVALID_API_KEY)\w*: .+\n {2}request id: \S+/);
    await assert.rejects(stat(configFile), 'nothing was stored');
  },
);

test('login verifies the key and stores the profile in a 0600 file in a 0700 folder', SLOW, async () => {
  const result = await login();
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stdout,
    /^Logged in to http:\/\/127\.0\.0\.1:\d+ as key ".+" \(read, write, admin\) of Test Co\./,
  );
  assert.equal((await stat(configFile)).mode & 0o777, 0o600);
  assert.equal((await stat(path.dirname(configFile))).mode & 0o777, 0o700);
  const config = JSON.parse(await readFile(configFile, 'utf8'));
  assert.deepEqual(config, {
    current: 'default',
    profiles: { default: { url: t.baseUrl, company: t.tenant.companyId, key: t.tenant.keys.admin } },
  });
});

// The CRUD steps share one client; tests in a file run in order. Split so each step stays well inside its timeout.
let id = 0;

test('clients create (json), get (table) and update (--data)', SLOW, async () => {
  const created = await svcJson(home, ['clients', 'create', '--name', 'Acme, "the" company']);
  id = created.data.id as number;
  assert.equal(created.data.name, 'Acme, "the" company');
  assert.equal((await storedClient(id))?.name, 'Acme, "the" company');

  const table = await svc(home, ['clients', 'get', String(id), '-o', 'table']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^field +value\n-+ +-+\n/);
  assert.match(table.stdout, new RegExp(`\\nid +${id}\\n`));

  const updated = await svcJson(home, ['clients', 'update', String(id), '--data', '{"name":"Acme Two"}']);
  assert.equal(updated.data.name, 'Acme Two');
  assert.equal((await storedClient(id))?.name, 'Acme Two');
});

test('clients list: csv, --all across cursor pages, one page by default', SLOW, async () => {
  await svcJson(home, ['clients', 'create', '--name', 'Beta']);
  const csv = await svc(home, ['clients', 'list', '-o', 'csv', '--sort', 'id']);
  assert.equal(csv.code, 0, csv.stderr);
  const [header, ...lines] = csv.stdout.trimEnd().split('\r\n');
  assert.ok(header!.split(',').includes('name'));
  assert.deepEqual(lines.length, 2);
  assert.match(lines[0]!, new RegExp(`^${id},`));

  const all = await svcJson(home, ['clients', 'list', '--all', '--limit', '1']);
  assert.deepEqual(
    all.data.map((c: { name: string }) => c.name),
    ['Acme Two', 'Beta'],
    'both pages, one client each',
  );
  const page = await svcJson(home, ['clients', 'list', '--limit', '1']);
  assert.equal(page.data.length, 1);
  assert.equal(page.meta.has_more, true);
});

test('clients delete prints nothing on stdout and soft-deletes the client', SLOW, async () => {
  const deleted = await svc(home, ['clients', 'delete', String(id)]);
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.equal(deleted.stdout, '');
  assert.notEqual((await storedClient(id))?.deleted_at ?? null, null);
});

test('a flag of the wrong type is the API validation error, field named, exit 2, nothing sent', SLOW, async () => {
  const before = await t.db.db.selectFrom('clients').select(t.db.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const badBody = await svc(home, ['clients', 'create', '--data', '{"name": 5}']);
  assert.equal(badBody.code, 2);
  assert.match(badBody.stderr, /^error: VALIDATION_ERROR: Field name must be string \(--name\) \(field name\)/);
  const badQuery = await svc(home, ['clients', 'list', '--limit', 'many', '-o', 'json']);
  assert.equal(badQuery.code, 2);
  const error = JSON.parse(badQuery.stderr).error;
  assert.equal(error.code, 'VALIDATION_ERROR');
  assert.equal(error.details.field, 'limit');
  assert.match(error.message, /^Query parameter limit must be integer \(--limit\)$/);
  const after = await t.db.db.selectFrom('clients').select(t.db.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
  assert.deepEqual(after, before);
  const unknown = await svc(home, ['clients', 'frobnicate']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command 'frobnicate'/);
});

test(
  'an API error prints code, message and request id: 4xx is exit 4; an unreachable service is exit 6',
  SLOW,
  async () => {
    const missing = await svc(home, ['clients', 'get', '99999999']);
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /^error: NOT_FOUND: .+\n {2}request id: [\w-]+\n$/);
    const gone = await svc(home, ['api', 'GET', '/clients'], {
      SVC_URL: 'http://127.0.0.1:9',
      SVC_COMPANY: t.tenant.companyId,
      SVC_API_KEY: t.tenant.keys.admin,
    });
    assert.equal(gone.code, 6, gone.stderr);
    assert.match(gone.stderr, /^error: NETWORK: GET http:\/\/127\.0\.0\.1:9\/api\/v3\/clients failed/);
  },
);

test('svc api sends any request; its query string and body are passed on', SLOW, async () => {
  const created = await svcJson(home, ['api', 'POST', '/clients', '--data', '{"name":"Via api"}']);
  assert.equal((await storedClient(created.data.id))?.name, 'Via api');
  const found = await svcJson(home, ['api', 'GET', '/api/v3/clients?name=Via%20api']);
  assert.deepEqual(
    found.data.map((c: { id: number }) => c.id),
    [created.data.id],
  );
  const bad = await svc(home, ['api', 'FETCH', '/clients']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /METHOD must be one of GET, POST, PUT, PATCH, DELETE/);
});

test('profiles: --profile and SVC_PROFILE pick one, logout removes it', SLOW, async () => {
  const other = await t.newTenant({ name: 'Other Co' });
  const result = await svc(
    home,
    ['login', ...['--company', other.companyId, '--url', t.baseUrl, '--profile', 'other']],
    {},
    other.keys.read,
  );
  assert.equal(result.code, 0, result.stderr);
  await svcJson(home, ['clients', 'create', '--name', 'Only in Other', '--profile', 'default']);
  const viaEnv = await svc(home, ['clients', 'list', '-o', 'json'], { SVC_PROFILE: 'other' });
  assert.equal(viaEnv.code, 0, viaEnv.stderr);
  assert.ok(!JSON.parse(viaEnv.stdout).data.some((c: { name: string }) => c.name === 'Only in Other'));
  const readOnly = await svc(home, ['clients', 'create', '--name', 'x', '--profile', 'other']);
  assert.equal(readOnly.code, 4, 'a read key may not write');
  const out = await svc(home, ['logout', '--profile', 'other']);
  assert.equal(out.code, 0, out.stderr);
  const config = JSON.parse(await readFile(configFile, 'utf8'));
  assert.deepEqual(Object.keys(config.profiles), ['default']);
  assert.equal(config.current, 'default');
});

test(
  'login takes the key from SVC_API_KEY too; --key still works but warns that it exposes the key',
  SLOW,
  async () => {
    const second = await makeHome();
    const secondFile = path.join(second.dir, 'config', 'svc', 'config.json');
    const fromEnv = await svc(second, ['login', '--company', t.tenant.companyId, '--url', t.baseUrl], {
      SVC_API_KEY: t.tenant.keys.write,
    });
    assert.equal(fromEnv.code, 0, fromEnv.stderr);
    assert.equal(fromEnv.stderr, '', 'no warning: the key was not on the command line');
    assert.equal(JSON.parse(await readFile(secondFile, 'utf8')).profiles.default.key, t.tenant.keys.write);
    const flag = await svc(second, [
      'login',
      '--company',
      t.tenant.companyId,
      '--url',
      t.baseUrl,
      '--key',
      t.tenant.keys.read,
    ]);
    assert.equal(flag.code, 0, flag.stderr);
    assert.match(
      flag.stderr,
      /^warning: --key is deprecated: it puts the API key in the process list and shell history/,
    );
    assert.equal(JSON.parse(await readFile(secondFile, 'utf8')).profiles.default.key, t.tenant.keys.read);
    const none = await svc(second, ['login', '--company', t.tenant.companyId, '--url', t.baseUrl]);
    assert.equal(none.code, 2, none.stderr);
    assert.match(none.stderr, /^error: USAGE: no API key: pipe it on standard input/);
  },
);

test(
  'login refuses plain http:// for a host that is not this machine, before anything is sent or stored',
  SLOW,
  async () => {
    const third = await makeHome();
    const remote = await svc(third, ['login', '--company', t.tenant.companyId, '--url', 'http://0.0.0.0:9'], {}, 'k');
    assert.equal(remote.code, 2, remote.stderr);
    assert.match(
      remote.stderr,
      /^error: USAGE: --url http:\/\/0\.0\.0\.0:9 sends the API key unencrypted: use https:\/\//,
    );
    await assert.rejects(stat(path.join(third.dir, 'config', 'svc', 'config.json')), 'nothing was stored');
    const local = await svc(
      third,
      ['login', '--company', t.tenant.companyId, '--url', t.baseUrl.replace('127.0.0.1', 'localhost')],
      {},
      t.tenant.keys.read,
    );
    assert.equal(local.code, 0, `plain http to this machine is fine: ${local.stderr}`);
  },
);
