import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';
import { blockedRange, resolveTarget, UnsafeTarget } from '../../src/platform/ssrf.ts';
import { startReceiver } from './receiver.ts';
import { drainOnce } from '../../src/background/webhooks/engine.ts';
import { attemptsOf, deliverAll, subscribe, webhookApp } from './setup.ts';

// A production-like app: https only, no private targets.
const strict = await createTestApp({}, { SVC_WEBHOOK_RATE: '0' });

const REFUSED = [
  ['https://127.0.0.1/hook', 'loopback'],
  ['https://10.0.0.1/hook', 'private'],
  ['https://169.254.169.254/latest/meta-data/', 'link-local'],
  ['https://[::1]/hook', 'loopback'],
  ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
  ['https://localhost/hook', 'loopback'],
] as const;

test('address classification: only public unicast passes', () => {
  for (const address of [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '192.0.2.1',
    '240.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '::7f00:1',
    '64:ff9b::a00:1',
    '2002:a00:1::',
    '2001::1',
    '2001:db8::1',
  ]) {
    assert.notEqual(blockedRange(address), null, `${address} must be refused`);
  }
  for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
    assert.equal(blockedRange(address), null, `${address} is public`);
});

test('subscribing to a private, loopback, link-local or mapped address is refused with 400', async () => {
  for (const [url, range] of REFUSED) {
    const res = await strict.request('POST', '/webhooks', { body: { webhook: 'client.created', url } });
    assert.equal(res.status, 400, `${url}: ${res.text}`);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    assert.equal(res.body.error.details.reason, 'URL_PRIVATE_ADDRESS', url);
    assert.equal(res.body.error.details.field, 'url');
    // An address literal may be named with its range; a name is never shown what it resolves to.
    if (url.includes('localhost'))
      assert.equal(res.body.error.message, 'localhost does not resolve to a public address');
    else assert.match(res.body.error.message, new RegExp(range), url);
  }
  const rows = await strict.db.db
    .selectFrom('webhooks')
    .select('id')
    .where('company_id', '=', strict.tenant.companyId)
    .execute();
  assert.equal(rows.length, 0, 'nothing was stored');
});

test('http, credentials in the URL and non-URLs are refused; PATCH checks the URL too', async () => {
  const cases = [
    ['http://93.184.216.34/hook', 'URL_SCHEME'],
    ['ftp://93.184.216.34/hook', 'URL_SCHEME'],
    ['https://user:pw@93.184.216.34/hook', 'URL_CREDENTIALS'],
    ['not a url', 'URL_INVALID'],
    [`https://93.184.216.34/${'a'.repeat(2040)}`, 'VALIDATION_ERROR'],
  ] as const;
  for (const [url, reason] of cases) {
    const res = await strict.request('POST', '/webhooks', { body: { webhook: 'client.created', url } });
    assert.equal(res.status, 400, url);
    assert.equal(res.body.error.code, 'VALIDATION_ERROR');
    if (reason !== 'VALIDATION_ERROR') assert.equal(res.body.error.details.reason, reason, url);
  }
  const ok = await strict.request('POST', '/webhooks', {
    body: { webhook: 'client.created', url: 'https://93.184.216.34/hook' },
  });
  assert.equal(ok.status, 201, ok.text);
  const patched = await strict.request('PATCH', `/webhooks/${ok.body.data.id}`, {
    body: { url: 'https://10.1.2.3/hook' },
  });
  assert.equal(patched.status, 400);
  assert.equal(patched.body.error.details.reason, 'URL_PRIVATE_ADDRESS');
  assert.equal(
    (await strict.request('GET', `/webhooks/${ok.body.data.id}`)).body.data.url,
    'https://93.184.216.34/hook',
  );
});

test('resolveTarget: a mixed DNS answer is refused, a name that does not resolve too', async () => {
  const mixed = async () => [
    { address: '93.184.216.34', family: 4 },
    { address: '10.0.0.7', family: 4 },
  ];
  await assert.rejects(
    resolveTarget('https://rebind.test/', { allowPrivate: false, resolve: mixed }),
    (e) =>
      e instanceof UnsafeTarget &&
      e.reason === 'URL_PRIVATE_ADDRESS' &&
      e.message === 'rebind.test does not resolve to a public address' &&
      e.detail?.address === '10.0.0.7',
  );
  const none = async () => {
    throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
  };
  await assert.rejects(
    resolveTarget('https://nowhere.test/', { allowPrivate: false, resolve: none }),
    (e) => e instanceof UnsafeTarget && e.reason === 'URL_UNRESOLVABLE',
  );
  const target = await resolveTarget('https://api.test/x?y=1', {
    allowPrivate: false,
    resolve: async () => [{ address: '93.184.216.34', family: 4 }],
  });
  assert.deepEqual([target.address, target.port, target.host], ['93.184.216.34', 443, 'api.test']);
  const v6 = await resolveTarget('https://[2606:4700::1111]:8443/', { allowPrivate: false });
  assert.deepEqual([v6.address, v6.family, v6.port, v6.host], ['2606:4700::1111', 6, 8443, '[2606:4700::1111]:8443']);
});

test('at delivery the address is checked again: refused targets get a blocked row and no request', async () => {
  // Subscribed where private targets were allowed; delivered by a worker that allows none.
  const t = await webhookApp();
  const receiver = await startReceiver();
  const urls = [
    ...REFUSED.map(([url]) => url),
    `https://rebind.test:${receiver.port}/hook`,
    receiver.url.replace('http:', 'https:'),
  ];
  const ids: number[] = [];
  for (const url of urls) {
    const { id } = await subscribe(t, 'client.created', receiver.url);
    await t.db.db.updateTable('webhooks').set({ url }).where('id', '=', id).execute();
    ids.push(id);
  }
  // The name answered public at subscribe time and now answers private (DNS rebinding).
  const resolve = async (host: string) =>
    host === 'rebind.test'
      ? [{ address: '127.0.0.1', family: 4 }]
      : host === 'localhost'
        ? [{ address: '127.0.0.1', family: 4 }]
        : [];
  const strictConfig = {
    ...t.deps.config,
    webhooks: { ...t.deps.config.webhooks, allowPrivate: false, retryDelaysMs: [] },
  };
  assert.equal((await t.request('POST', '/clients', { body: { name: 'Target Practice' } })).status, 201);
  await deliverAll(t, { config: strictConfig, resolve });
  assert.equal(receiver.received.length, 0, 'nothing reached the loopback receiver');
  for (const [i, id] of ids.entries()) {
    const [row] = await attemptsOf(t, id);
    assert.equal(row.status, 'blocked', urls[i]);
    assert.match(
      row.response_body,
      /^blocked: (\S+ is not a public address \(.+\)|(localhost|rebind\.test) does not resolve to a public address)$/,
      urls[i],
    );
    assert.equal(row.response_status, null);
  }
  const http = await subscribe(t, 'client.created', receiver.url);
  assert.equal((await t.request('POST', '/clients', { body: { name: 'Plain Http' } })).status, 201);
  await deliverAll(t, { config: strictConfig, resolve });
  const [row] = await attemptsOf(t, http.id);
  assert.deepEqual(
    [row.status, row.response_body],
    ['blocked', 'blocked: http is not allowed; webhook URLs must use https'],
  );
});

test('a name refused for its address is not told what it resolves to: only the request log has it', async () => {
  const url = 'https://localhost:8443/hook';
  const created = await strict.request('POST', '/webhooks', { body: { webhook: 'client.created', url } });
  assert.equal(created.status, 400);
  assert.deepEqual(created.body.error, {
    code: 'VALIDATION_ERROR',
    message: 'localhost does not resolve to a public address',
    details: { reason: 'URL_PRIVATE_ADDRESS', field: 'url' },
  });
  const ok = await strict.request('POST', '/webhooks', {
    body: { webhook: 'client.created', url: 'https://93.184.216.34/hook' },
  });
  const patched = await strict.request('PATCH', `/webhooks/${ok.body.data.id}`, { body: { url } });
  assert.equal(patched.status, 400);
  assert.equal(patched.body.error.message, 'localhost does not resolve to a public address');
  for (const res of [created, patched]) {
    assert.doesNotMatch(res.text, /127\.0\.0\.1|::1|loopback/);
    const requestId = res.headers.get('x-request-id')!;
    const line = strict.logs.find((l) => l.includes(requestId) && l.includes('webhook URL refused'));
    assert.ok(line, 'the refusal is logged with its request id');
    assert.match(line, /"host":"localhost"/);
    assert.match(line, /"address":"(127\.0\.0\.1|::1)"/);
    assert.match(line, /"range":"loopback"/);
  }
  assert.equal(
    (await strict.request('GET', `/webhooks/${ok.body.data.id}`)).body.data.url,
    'https://93.184.216.34/hook',
  );
});

test('at delivery a name that answers private is logged for the operator, not in the delivery log', async () => {
  const t = await webhookApp();
  const receiver = await startReceiver();
  const { id } = await subscribe(t, 'client.created', receiver.url);
  await t.db.db.updateTable('webhooks').set({ url: 'https://db.internal/hook' }).where('id', '=', id).execute();
  const resolve = async () => [{ address: '10.2.3.4', family: 4 }];
  const strictConfig = {
    ...t.deps.config,
    webhooks: { ...t.deps.config.webhooks, allowPrivate: false, retryDelaysMs: [] },
  };
  assert.equal((await t.request('POST', '/clients', { body: { name: 'Internal' } })).status, 201);
  await deliverAll(t, { config: strictConfig, resolve });
  const [row] = await attemptsOf(t, id);
  assert.deepEqual(
    [row.status, row.response_body],
    ['blocked', 'blocked: db.internal does not resolve to a public address'],
  );
  const logged = t.deps.log.lines.find((l) => l.msg === 'webhook target refused at delivery');
  assert.ok(logged);
  assert.deepEqual(
    [logged.obj.host, logged.obj.address, logged.obj.range, logged.obj.webhook_id],
    ['db.internal', '10.2.3.4', 'private', id],
  );
});

test('DNS has a time limit: a lookup that never answers is a failed, retried attempt, not a stuck loop', async () => {
  const t = await webhookApp();
  const receiver = await startReceiver();
  const { id } = await subscribe(t, 'client.created', receiver.url);
  await t.db.db
    .updateTable('webhooks')
    .set({ url: `http://slow-dns.test:${receiver.port}/hook` })
    .where('id', '=', id)
    .execute();
  const never = () => new Promise<Array<{ address: string; family: number }>>(() => {});
  assert.equal((await t.request('POST', '/clients', { body: { name: 'Hanging DNS' } })).status, 201);
  // The lookup never answers: only the 0.2 s DNS limit can end the attempt (the race is a generous backstop).
  const stuck = new Promise((_, reject) => setTimeout(() => reject(new Error('the attempt never ended')), 15_000));
  await Promise.race([drainOnce({ ...t.deps, resolve: never, dnsTimeoutMs: 200 }, 1), stuck]);
  const [row] = await attemptsOf(t, id);
  assert.equal(row.status, 'failed');
  assert.equal(row.response_body, 'not delivered: The host slow-dns.test did not resolve within 0.2 s');
  assert.equal(row.attempt, 1);
  assert.notEqual(row.next_retry_at, null, 'a time-out is retried');
  assert.equal(receiver.received.length, 0);
});
