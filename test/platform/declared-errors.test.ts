// The error handler's check that a route answers only the error codes it declares (tests pass a listener;
// test/helpers.ts fails the file on any finding through test/support/contract.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { AppError } from '../../src/platform/errors.ts';
import { registerErrorHandling, type UndeclaredError } from '../../src/platform/error-handler.ts';
import { route } from '../../src/platform/http.ts';

async function appAnswering(code: 'NOT_FOUND' | 'TIME_ENTRY_LOCKED', listener?: (v: UndeclaredError) => void) {
  const app = Fastify();
  registerErrorHandling(app, listener);
  app.route({
    ...route('PATCH', '/things/:thing_id', {
      operationId: 'updateThing',
      summary: 'Update a thing',
      tags: ['Things'],
      tier: 'write',
      errors: ['NOT_FOUND'],
      schema: {},
    }),
    handler: async () => {
      throw new AppError(code, 'refused');
    },
  });
  await app.ready();
  return app;
}

test('a declared code is answered and not reported', async () => {
  const found: UndeclaredError[] = [];
  const app = await appAnswering('NOT_FOUND', (v) => found.push(v));
  const response = await app.inject({ method: 'PATCH', url: '/things/1' });
  assert.equal(response.statusCode, 404);
  assert.deepEqual(found, []);
});

test('a code the declaration does not list is reported with the route, method and code', async () => {
  const found: UndeclaredError[] = [];
  const app = await appAnswering('TIME_ENTRY_LOCKED', (v) => found.push(v));
  const response = await app.inject({ method: 'PATCH', url: '/things/1' });
  assert.equal(response.statusCode, 409, 'the answer itself is unchanged');
  assert.deepEqual(found, [{ method: 'PATCH', url: '/things/:thing_id', code: 'TIME_ENTRY_LOCKED' }]);
});

test('codes every route can answer (its tier, a write) need no declaration', async () => {
  const found: UndeclaredError[] = [];
  const app = await appAnswering('NOT_FOUND', (v) => found.push(v));
  const response = await app.inject({
    method: 'PATCH',
    url: '/things/1',
    headers: { 'content-type': 'text/plain' },
    body: 'x',
  });
  assert.equal(response.statusCode, 415);
  assert.deepEqual(found, []);
});

test('without a listener (production) nothing is checked', async () => {
  const app = await appAnswering('TIME_ENTRY_LOCKED');
  assert.equal((await app.inject({ method: 'PATCH', url: '/things/1' })).statusCode, 409);
});
