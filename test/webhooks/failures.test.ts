import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { after } from 'node:test';
import { addMember } from '../../src/modules/companies/companies.service.ts';
import { generateKey } from '../../src/platform/keys.ts';
import { expandScopes } from '../../src/platform/scopes.ts';
import { startReceiver } from './receiver.ts';
import {
  attemptsOf,
  createClient,
  deliverAll,
  pendingCount,
  subscribe,
  webhookApp,
  type WebhookTestApp,
} from './setup.ts';

/** An admin who is not the owner, with an admin key: the subscription's creator. */
async function adminCreator(t: WebhookTestApp) {
  const admin = await addMember(t.db.db, t.tenant.companyId, {
    name: 'Ada',
    surname: 'Admin',
    email: 'ada@test.example',
    role: 'admin',
    status: 'active',
  });
  const key = generateKey();
  await t.db.db
    .insertInto('api_keys')
    .values({
      company_id: t.tenant.companyId,
      name: 'ada admin',
      key_prefix: key.prefix,
      key_hash: key.hash,
      kind: 'integration',
      scopes: expandScopes(['admin']),
      person_id: admin.person_id,
      revoked_at: null,
      expires_at: null,
      grace_expires_at: null,
      rotated_to_id: null,
      ip_allowlist: null,
      last_used_at: null,
    })
    .execute();
  return { personId: admin.person_id, key: key.fullKey };
}

test('10 consecutive failures disable the subscription, notify owner and creator; PATCH is_active re-enables', async () => {
  const t = await webhookApp();
  const creator = await adminCreator(t);
  const receiver = await startReceiver();
  receiver.handle(() => ({ status: 500, body: 'nope' }));
  const created = await t.request('POST', '/webhooks', {
    key: creator.key,
    body: { webhook: 'client.created', url: receiver.url },
  });
  assert.equal(created.status, 201, created.text);
  const id = created.body.data.id;
  for (const name of ['One', 'Two', 'Three']) await createClient(t, name);
  await deliverAll(t);

  const sub = (await t.request('GET', `/webhooks/${id}`)).body.data;
  assert.equal(receiver.received.length, 10, 'the tenth failure is the last attempt');
  assert.equal(sub.is_active, false);
  assert.equal(sub.status, 'disabled');
  assert.equal(sub.failure_count, 10);
  assert.equal(sub.disabled_reason, 'failures');
  assert.ok(sub.last_failure_at && sub.disabled_at);
  const rows = await attemptsOf(t, id);
  assert.equal(rows.filter((r) => r.status === 'failed').length, 10);
  assert.ok(
    rows
      .filter((r) => r.status !== 'failed')
      .every((r) => r.status === 'not_delivered' && r.response_body === 'not delivered: subscription paused/disabled'),
  );
  assert.equal(await pendingCount(t), 0);

  const notes = await t.db.db
    .selectFrom('notifications')
    .select(['person_id', 'type', 'title', 'body'])
    .where('company_id', '=', t.tenant.companyId)
    .orderBy('person_id')
    .execute();
  assert.deepEqual(
    notes.map((n) => n.person_id).sort(),
    [t.tenant.ownerPersonId, creator.personId].sort(),
    'owner and creator, once each',
  );
  assert.ok(
    notes.every((n) => n.type === 'webhook_disabled' && n.title.includes('client.created') && n.body.includes('PATCH')),
  );
  const mails = await t.db.db
    .selectFrom('mail_outbox')
    .select(['recipient', 'status', 'subject'])
    .where('company_id', '=', t.tenant.companyId)
    .orderBy('recipient')
    .execute();
  assert.deepEqual(
    mails.map((m) => [m.recipient, m.status]),
    [
      ['ada@test.example', 'logged'],
      ['olive@test.example', 'logged'],
    ],
  );
  assert.ok(
    t.deps.log.lines.some(
      (l) => l.msg.startsWith('mail kept in mail_outbox') && (l.obj as { to?: string }).to === 'olive@test.example',
    ),
  );

  // Disabled: new events are not stored for it.
  await createClient(t, 'While Disabled');
  assert.equal(await pendingCount(t), 0);
  const queued = await t.db.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', id).execute();
  assert.equal(queued.length, 3, 'nothing was queued for the disabled subscription');

  const enabled = await t.request('PATCH', `/webhooks/${id}`, { body: { is_active: true } });
  assert.equal(enabled.status, 200, enabled.text);
  assert.equal(enabled.body.data.is_active, true);
  assert.equal(enabled.body.data.status, 'active');
  assert.equal(enabled.body.data.failure_count, 0);
  assert.equal(enabled.body.data.disabled_at, null);
  assert.equal(enabled.body.data.disabled_reason, null);
  receiver.handle(() => ({ status: 200 }));
  const client = await createClient(t, 'After Enable');
  await deliverAll(t);
  const last = receiver.received.at(-1)!;
  assert.equal(last.body.data.id, client.id);
  assert.equal(last.headers['x-service-retry-num'], undefined);
});

test('paused: events raised meanwhile are not stored; queued ones are logged as not delivered', async () => {
  const t = await webhookApp();
  const receiver = await startReceiver();
  const { id } = await subscribe(t, 'client.created', receiver.url);
  await createClient(t, 'Queued Before Pause');
  const paused = await t.request('PATCH', `/webhooks/${id}`, { body: { is_active: 0 } });
  assert.equal(paused.status, 200);
  assert.equal(paused.body.data.status, 'paused');
  assert.equal(paused.body.data.disabled_at, null);
  await createClient(t, 'Raised While Paused');
  await deliverAll(t);
  assert.equal(receiver.received.length, 0);
  const rows = await attemptsOf(t, id);
  assert.deepEqual(
    rows.map((r) => [r.status, r.response_body]),
    [['not_delivered', 'not delivered: subscription paused/disabled']],
  );
  const events = await t.db.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', id).execute();
  assert.equal(events.length, 1, 'the event raised while paused was never stored for it');
  assert.equal((await t.request('GET', `/webhooks/${id}`)).body.data.failure_count, 0, 'not a failure');
});

/** A minimal SMTP server: enough of the protocol for nodemailer to hand over one message. */
async function fakeSmtp(): Promise<{ port: number; messages: string[] }> {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    let data = false;
    let buffer = '';
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      let i: number;
      while ((i = buffer.indexOf(data ? '\r\n.\r\n' : '\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + (data ? 5 : 2));
        if (data) {
          messages.push(line);
          data = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-fake\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          data = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  after(() => new Promise<void>((r) => server.close(() => r())));
  return { port: (server.address() as net.AddressInfo).port, messages };
}

test('with SMTP_URL the disable notice is e-mailed through the SMTP server', async () => {
  const smtp = await fakeSmtp();
  const t = await webhookApp({
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    SVC_MAIL_FROM: 'Webhooks <hooks@svc.example>',
  });
  const { createMailer } = await import('../../src/background/webhooks/mailer.ts');
  const mailer = createMailer(t.app.config)!;
  after(() => mailer.close());
  const receiver = await startReceiver();
  receiver.handle(() => ({ status: 410, body: 'gone' }));
  const { id } = await subscribe(t, 'client.created', receiver.url);
  await createClient(t, 'Gone Receiver');
  await deliverAll(t, { mailer });
  const mails = await t.db.db
    .selectFrom('mail_outbox')
    .select(['recipient', 'status', 'subject'])
    .where('company_id', '=', t.tenant.companyId)
    .execute();
  assert.deepEqual(
    mails.map((m) => [m.recipient, m.status]),
    [['olive@test.example', 'sent']],
  );
  assert.equal(smtp.messages.length, 1);
  assert.match(smtp.messages[0]!, /To: olive@test\.example/);
  assert.match(smtp.messages[0]!, /From: Webhooks <hooks@svc\.example>/);
  assert.match(smtp.messages[0]!, new RegExp(`webhooks/${id}`));
  assert.match(smtp.messages[0]!, /410 Gone/);
});
