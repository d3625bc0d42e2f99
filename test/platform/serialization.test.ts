// Response serializers get `Nullable(X)` as X with `nullable: true` (src/platform/validation.ts forSerialization):
// the same JSON as the anyOf they replace, without an Ajv check per value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fastJson from 'fast-json-stringify';
import { Type } from 'typebox';
import { Nullable } from '../../src/platform/fields.ts';
import { forSerialization } from '../../src/platform/validation.ts';

const Record = Type.Object({
  id: Type.Integer(),
  finished_at: Nullable(Type.String({ format: 'date-time' })),
  estimate: Nullable(Type.Integer()),
  owner: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
  tags: Nullable(Type.Array(Type.String())),
  either: Type.Union([Type.Integer(), Type.String()]),
});

test('a nullable typed field becomes nullable: true; other unions stay as they are', () => {
  const schema = forSerialization(Record) as { properties: Record<string, Record<string, unknown>> };
  assert.deepEqual(schema.properties.finished_at, { type: 'string', format: 'date-time', nullable: true });
  assert.equal(schema.properties.owner!.type, 'object');
  assert.equal(schema.properties.owner!.nullable, true);
  assert.equal(schema.properties.owner!.anyOf, undefined);
  assert.ok(Array.isArray(schema.properties.either!.anyOf), 'a union of two values is left to fast-json-stringify');
  assert.ok(Array.isArray((Record.properties.finished_at as { anyOf?: unknown }).anyOf), 'the input is untouched');
});

test('the serialized JSON is the same as with the original schema, for values and nulls alike', () => {
  const original = fastJson(Record as never) as (value: unknown) => string;
  const transformed = fastJson(forSerialization(Record) as never) as (value: unknown) => string;
  const values = [
    {
      id: 1,
      finished_at: '2026-11-23T10:00:00.000Z',
      estimate: 3600,
      owner: { id: 2, name: 'Ann' },
      tags: ['a'],
      either: 5,
    },
    { id: 2, finished_at: null, estimate: null, owner: null, tags: null, either: 'x' },
  ];
  for (const value of values) {
    assert.equal(transformed(value), original(value));
    assert.deepEqual(JSON.parse(transformed(value)), value);
  }
});
