import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extract, parseAmount } from '../../../src/modules/documents/digitize.ts';

test('amounts are read exactly, whatever the grouping and decimal marks', () => {
  assert.equal(parseAmount('1.234,50'), '1234.50');
  assert.equal(parseAmount('1,234.50'), '1234.50');
  assert.equal(parseAmount("1'234'567.5"), '1234567.50');
  assert.equal(parseAmount('1 000'), '1000');
  assert.equal(parseAmount('0.10'), '0.10');
  assert.equal(parseAmount('99999999999999999999.99'), '99999999999999999999.99');
});

test('extraction keeps real dates only, in text order, and bounds every list', () => {
  const result = extract('31.02.2026 2026-13-01 29/02/2024 2025-01-02');
  assert.deepEqual(result.dates, ['2024-02-29', '2025-01-02']);
  const many = Array.from({ length: 80 }, (_, i) => `user${i}@example.com`).join(' ');
  assert.equal(extract(many).emails.length, 50);
  const empty = extract('');
  assert.deepEqual([empty.words, empty.lines, empty.amounts], [0, 0, []]);
});
