import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Contract } from '../support/contract.ts';

// A small document: the checker must find each kind of difference the contract test fails a file on.
const document = {
  openapi: '3.1.0',
  components: { headers: { 'X-Request-Id': { required: true, schema: { type: 'string' } } } },
  paths: {
    '/things/{thing_id}': {
      get: {
        responses: {
          200: {
            description: 'OK',
            headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
            content: {
              'application/json': {
                schema: { type: 'object', required: ['data'], properties: { data: { type: 'integer' } } },
              },
            },
          },
        },
      },
    },
    '/things/special': { get: { responses: { 204: { description: 'No Content' } } } },
  },
};

const exchange = (path: string, status: number, headers: Record<string, string>, body?: string) => ({
  method: 'GET',
  path: `/api/v3${path}`,
  status,
  headers: new Headers(headers),
  body: async () => body,
});

test('the contract check finds an undeclared status, a missing or undeclared header, a wrong body or type', async () => {
  const contract = new Contract(() => document);
  const json = { 'content-type': 'application/json', 'x-request-id': 'r' };
  contract.record(exchange('/things/1', 200, json, '{"data":1}'));
  contract.record(exchange('/things/special', 204, {}));
  assert.deepEqual(contract.mismatches, [], 'a literal path wins over the template; both answers match');
  contract.record(exchange('/things/1', 404, json, '{}'));
  contract.record(exchange('/things/2', 200, { 'content-type': 'application/json' }, '{"data":1}'));
  contract.record(exchange('/things/3', 200, { ...json, 'x-ratelimit-tier': 'read' }, '{"data":1}'));
  contract.record(exchange('/things/4', 200, json, '{"data":"x"}'));
  contract.record(exchange('/things/5', 200, { 'content-type': 'text/plain', 'x-request-id': 'r' }, 'x'));
  await contract.settle();
  assert.equal(contract.exchanges, 7);
  assert.equal(contract.differing, 5);
  assert.deepEqual(contract.mismatches.sort(), [
    'GET /things/{thing_id} → 200: body: /data must be integer',
    'GET /things/{thing_id} → 200: content type text/plain not declared (application/json)',
    'GET /things/{thing_id} → 200: header X-RateLimit-Tier sent but not declared',
    'GET /things/{thing_id} → 200: required header X-Request-Id missing',
    'GET /things/{thing_id} → 404: status not declared',
  ]);
});
