import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';
import { verifyWebhook, WebhookVerificationError } from '../../sdk/src/index.ts';
import { sign } from '../../src/modules/webhooks/webhooks.payload.ts';

const t = await createTestApp();

const reasonOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof WebhookVerificationError);
    return error.reason;
  }
  assert.fail('expected a verification error');
};

test("verifies the service's signed sample delivery and returns the event", async () => {
  const res = await t.request('GET', '/webhooks/example?event=client.created');
  assert.equal(res.status, 200, res.text);
  const { data, headers, example_secret } = res.body;
  const raw = JSON.stringify(data);
  const now = Number(headers['X-Service-Timestamp']) * 1000;
  const event = verifyWebhook(raw, headers, example_secret, { tolerance: 300, now });
  assert.deepEqual(event, data);
  assert.equal(event.event, headers['X-Service-Event']);
  assert.equal(
    reasonOf(() => verifyWebhook(raw, headers, 'whsec_wrong', { now })),
    'bad_signature',
  );
  assert.equal(
    reasonOf(() => verifyWebhook(`${raw} `, headers, example_secret, { now })),
    'bad_signature',
  );
});

test('checks the timestamp tolerance and the headers, given as a Headers object or a plain record', () => {
  const body = Buffer.from(JSON.stringify({ id: 'e1', event: 'client.created', occurred_at: 'x', data: { id: 1 } }));
  const now = 1_767_261_000_000;
  const stamp = (seconds: number) => {
    const timestamp = String(seconds);
    return new Headers({ 'X-Service-Timestamp': timestamp, 'X-Service-Signature': sign('whsec_s', timestamp, body) });
  };
  assert.equal(verifyWebhook(body, stamp(now / 1000 - 300), 'whsec_s', { now }).id, 'e1');
  const late = stamp(now / 1000 - 301);
  assert.equal(
    reasonOf(() => verifyWebhook(body, late, 'whsec_s', { now })),
    'timestamp_out_of_tolerance',
  );
  assert.equal(verifyWebhook(body, late, 'whsec_s', { now, tolerance: 600 }).id, 'e1');
  const lower = Object.fromEntries([...stamp(now / 1000)].map(([k, v]) => [k.toLowerCase(), v]));
  assert.equal(verifyWebhook(body, lower, 'whsec_s', { now }).event, 'client.created');
  assert.equal(
    reasonOf(() => verifyWebhook(body, {}, 'whsec_s', { now })),
    'missing_header',
  );
  const badTime = { 'x-service-timestamp': 'soon', 'x-service-signature': 'sha256=00' };
  assert.equal(
    reasonOf(() => verifyWebhook(body, badTime, 'whsec_s', { now })),
    'bad_timestamp',
  );
  const text = Buffer.from('not json');
  const signed = { 'x-service-timestamp': '1767261000', 'x-service-signature': sign('whsec_s', '1767261000', text) };
  assert.equal(
    reasonOf(() => verifyWebhook(text, signed, 'whsec_s', { now })),
    'bad_body',
  );
});
