import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../helpers.ts';

const t = await createTestApp();

test('an action sent with Content-Type application/json and no body runs; broken JSON is still a 400', async () => {
  const task = await t.request('POST', '/tasks', { body: { title: 'Close the month' } });
  assert.equal(task.status, 201, task.text);
  const empty = await t.request('POST', `/tasks/${task.body.data.id}/complete`, {
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(empty.status, 200, empty.text);
  assert.equal(empty.body.data.status, 'finished');

  const broken = await t.request('POST', `/tasks/${task.body.data.id}/reopen`, { body: '{"a":' });
  assert.equal(broken.status, 400);
  assert.equal(broken.body.error.code, 'VALIDATION_ERROR');
  const proto = await t.request('POST', '/clients', { body: '{"name":"x","__proto__":{"a":1}}' });
  assert.equal(proto.status, 400);
});
