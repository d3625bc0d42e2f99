// Timestamps from PostgreSQL become ISO 8601 UTC text (src/db/database.ts toIso), read field by field rather than
// by Date's legacy parser: the answer must be the same for every form PostgreSQL prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { toIso } from '../../src/db/database.ts';
import { cloneDatabase } from '../clone.ts';

const ZONES = ['UTC', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Chatham', 'Africa/Monrovia'];
const INSTANTS = [
  '2026-11-23T10:00:00Z',
  '2026-11-23T10:00:00.1Z',
  '2026-11-23T10:00:00.123456Z',
  '2026-03-29T01:30:00.5Z',
  '1999-12-31T23:59:59.999999Z',
  '2000-02-29T00:00:00.01Z',
  '1970-01-01T00:00:00Z',
  '1900-01-01T00:00:00Z', // Monrovia was -00:44:30 then: an offset with seconds
];

test('every timestamptz PostgreSQL prints, in any session time zone, reads as the same UTC instant', async () => {
  const client = new pg.Client({ connectionString: await cloneDatabase() });
  await client.connect();
  try {
    for (const zone of ZONES) {
      await client.query(`set time zone '${zone}'`);
      for (const instant of INSTANTS) {
        // The text PostgreSQL sends, and the instant it means, printed by PostgreSQL itself in UTC.
        const { rows } = await client.query<{ text: string; utc: string }>(
          `select $1::timestamptz::text as text,
                  to_char($1::timestamptz at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as utc`,
          [instant],
        );
        const { text, utc } = rows[0]!;
        assert.equal(toIso(text), utc, `${zone}: ${text}`);
        // Date's own parser agrees wherever it can read the text (it cannot read an offset with seconds).
        const parsed = new Date(text);
        if (!Number.isNaN(parsed.getTime())) assert.equal(toIso(text), parsed.toISOString(), `${zone}: ${text}`);
      }
    }
  } finally {
    await client.end();
  }
});

test('forms outside the fast path (early years, BC, infinity) go the general way', () => {
  assert.equal(toIso('0099-06-01 00:00:00+00'), new Date('0099-06-01 00:00:00+00').toISOString());
  assert.throws(() => toIso('infinity'), RangeError, 'as before: an infinite timestamp is not an instant');
});
