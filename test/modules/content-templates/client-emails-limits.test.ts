import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { createTestApp, type Response, type TenantFixture } from '../../helpers.ts';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';

/** POST /clients/{id}/emails is not a relay: one recipient cap on every path, and a per-company quota. */
const env = { SVC_CLIENT_MAIL_QUOTA: '60', SVC_CLIENT_MAIL_WINDOW: '3600' };
const t = await createTestApp({}, env);

/** A client with `mailable` contacts that have an e-mail address and `without` that have none. */
async function clientWith(tenant: TenantFixture, mailable: number, without = 0) {
  const client = await t.db.db
    .insertInto('clients')
    .values({ company_id: tenant.companyId, name: 'Many', status: 'active' } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  const contacts = [
    ...Array.from({ length: mailable }, (_, i) => ({ name: `C${i}`, email: `c${i}-${client.id}@client.example` })),
    ...Array.from({ length: without }, (_, i) => ({ name: `N${i}`, email: i % 2 ? null : 'not an address' })),
  ].map((c) => ({ company_id: tenant.companyId, client_id: client.id, ...c }));
  await t.db.db
    .insertInto('contacts')
    .values(contacts as never)
    .execute();
  return client.id;
}

const mail = { subject: 'Hello {{client.name}}', body: 'To {{contact.email}}' };
const send = (tenant: TenantFixture, clientId: number, headers: Record<string, string> = {}) =>
  t.request('POST', `/clients/${clientId}/emails`, { tenant, body: mail, headers });

async function stored(tenant: TenantFixture, clientId: number) {
  const outbox = await t.db.db
    .selectFrom('mail_outbox')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', tenant.companyId)
    .where('recipient', 'like', `%-${clientId}@client.example`)
    .executeTakeFirstOrThrow();
  const notes = await t.db.db
    .selectFrom('notes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('company_id', '=', tenant.companyId)
    .where('related_type', '=', 'client')
    .where('related_id', '=', clientId)
    .executeTakeFirstOrThrow();
  return { mails: Number(outbox.n), notes: Number(notes.n) };
}

const counted = async (tenant: TenantFixture) =>
  (
    await t.db.db
      .selectFrom('client_mail_quota')
      .select('mails')
      .where('company_id', '=', tenant.companyId)
      .executeTakeFirst()
  )?.mails ?? 0;

function assertQuotaRefusal(res: Response, used: number, requested: number) {
  assert.equal(res.status, 429, res.text);
  assert.equal(res.body.error.code, 'RATE_LIMIT_EXCEEDED');
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
  assert.deepEqual(res.body.error.details, {
    limit: 60,
    window_seconds: 3600,
    used,
    requested,
    retry_after: retryAfter,
  });
}

test('the quota is a setting: 500 mails an hour by default, 0 turns it off, bad values refuse to start', () => {
  assert.deepEqual(loadConfig({}).clientMailQuota, { mails: 500, windowSeconds: 3600 });
  assert.deepEqual(loadConfig(env).clientMailQuota, { mails: 60, windowSeconds: 3600 });
  assert.equal(loadConfig({ SVC_CLIENT_MAIL_QUOTA: '0' }).clientMailQuota.mails, 0);
  assert.throws(() => loadConfig({ SVC_CLIENT_MAIL_QUOTA: '-1' }), /SVC_CLIENT_MAIL_QUOTA/);
  assert.throws(() => loadConfig({ SVC_CLIENT_MAIL_WINDOW: '0' }), /SVC_CLIENT_MAIL_WINDOW/);
  assert.throws(() => loadConfig({ SVC_CLIENT_MAIL_WINDOW: '1.5' }), /SVC_CLIENT_MAIL_WINDOW/);
});

test('without contact_ids the cap of 50 recipients applies too: 51 mailable contacts are refused, nothing is written', async () => {
  const tenant = await t.newTenant();
  const crowded = await clientWith(tenant, 51, 3);
  const refused = await send(tenant, crowded);
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.body.error.code, 'VALIDATION_ERROR');
  assert.equal(refused.body.error.details.reason, 'TOO_MANY_RECIPIENTS');
  assert.equal(refused.body.error.details.limit, 50);
  assert.equal(refused.body.error.details.field, 'contact_ids');
  assert.deepEqual(await stored(tenant, crowded), { mails: 0, notes: 0 });
  assert.equal(await counted(tenant), 0, 'a refused request uses no quota');

  const full = await clientWith(tenant, 50, 3);
  const ok = await send(tenant, full);
  assert.equal(ok.status, 201, ok.text);
  assert.equal(ok.body.data.recipients.length, 50, 'addresses that are not mailable are not counted');
  assert.deepEqual(await stored(tenant, full), { mails: 50, notes: 1 });
});

test('past the per-company quota: 429 RATE_LIMIT_EXCEEDED with Retry-After, counted in the database across instances', async () => {
  const tenant = await t.newTenant();
  // A second instance over the same database: another process in production.
  const second = await buildApp({
    config: loadConfig({ ...env, SVC_RATE_LIMIT_WRITE: '0' }),
    db: t.db,
    logStream: new Writable({ write: (_c, _e, cb) => cb() }),
  });
  after(() => second.close());
  const secondUrl = await second.listen({ port: 0, host: '127.0.0.1' });
  const viaSecond = async (clientId: number): Promise<Response> => {
    const res = await fetch(`${secondUrl}/api/v3/clients/${clientId}/emails`, {
      method: 'POST',
      headers: {
        'x-service-company': tenant.companyId,
        'x-api-key': tenant.keys.write,
        'content-type': 'application/json',
      },
      body: JSON.stringify(mail),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
  };

  assert.equal((await send(tenant, await clientWith(tenant, 40))).status, 201);
  const over = await clientWith(tenant, 21);
  assertQuotaRefusal(await viaSecond(over), 40, 21);
  assert.deepEqual(await stored(tenant, over), { mails: 0, notes: 0 }, 'nothing written past the quota');
  assert.equal((await viaSecond(await clientWith(tenant, 20))).status, 201, 'exactly up to the quota');
  const late = await clientWith(tenant, 1);
  const retry = { 'idempotency-key': `late-${late}` };
  assertQuotaRefusal(await send(tenant, late, retry), 60, 1);
  assert.equal(await counted(tenant), 60);

  const other = await t.newTenant();
  assert.equal((await send(other, await clientWith(other, 1))).status, 201, 'another company has its own quota');

  // The window is over (moved back rather than waited for): the count starts again.
  await sql`update client_mail_quota set window_start = window_start - interval '3600 seconds'
            where company_id = ${tenant.companyId}`.execute(t.db.db);
  const again = await send(tenant, late, retry);
  assert.equal(again.status, 201, 'the refusal was not stored under the Idempotency-Key: the retry goes');
  assert.equal(again.headers.get('idempotency-replayed'), null);
  assert.equal((await send(tenant, await clientWith(tenant, 5))).status, 201);
  assert.equal(await counted(tenant), 6);
});

test('concurrent sends of one company never pass the quota together', async () => {
  const tenant = await t.newTenant();
  const clients = [];
  for (let i = 0; i < 4; i++) clients.push(await clientWith(tenant, 20));
  const answers = await Promise.all(clients.map((id) => send(tenant, id)));
  assert.deepEqual(
    answers.map((a) => a.status).sort(),
    [201, 201, 201, 429],
    answers.map((a) => a.text.slice(0, 120)).join('\n'),
  );
  assert.equal(await counted(tenant), 60);
  let mails = 0;
  for (const id of clients) mails += (await stored(tenant, id)).mails;
  assert.equal(mails, 60);
});
