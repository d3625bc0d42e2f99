// The check that keeps the OpenAPI document's error codes true: in tests, an answer with a code the route's
// declaration does not list is reported (createTestApp turns reports into a failure of the file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { AppError } from '../../src/platform/errors.ts';
import { registerErrorHandling, type UndeclaredError } from '../../src/platform/error-handler.ts';
import { ErrorBody, route } from '../../src/platform/http.ts';

async function appAnswering(
  code: 'NOT_FOUND' | 'TIME_ENTRY_LOCKED' | 'UNAUTHORIZED',
  listener?: (v: UndeclaredError) => void,
) {
  const app = Fastify();
  app.addSchema(ErrorBody);
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

test('codes every route of its kind can answer (a signed-in write) need no declaration', async () => {
  const found: UndeclaredError[] = [];
  const app = await appAnswering('UNAUTHORIZED', (v) => found.push(v));
  const response = await app.inject({ method: 'PATCH', url: '/things/1' });
  assert.equal(response.statusCode, 401);
  assert.deepEqual(found, []);
});

test('without a listener (production) nothing is checked', async () => {
  const app = await appAnswering('TIME_ENTRY_LOCKED');
  assert.equal((await app.inject({ method: 'PATCH', url: '/things/1' })).statusCode, 409);
});
