import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createTestApp } from '../../helpers.ts';
import { countEvents, insertTask } from './fixtures.ts';

// Every statement any connection of this process sends (the app runs in it), while `counting` is on.
const sent: string[] = [];
let counting = false;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
  if (counting) sent.push(typeof config === 'string' ? config : String((config as { text?: string })?.text));
  return (query as (...args: unknown[]) => unknown).call(this, config, ...rest);
} as typeof query;

const t = await createTestApp();
const task = await insertTask(t, t.tenant);

async function statementsOf(write: () => Promise<{ status: number; text: string }>): Promise<string[]> {
  // The key's first request looks it up and stamps last_used_at; from then on the key cache answers.
  assert.equal((await t.request('GET', '/time-entries?limit=1', { key: 'write' })).status, 200);
  sent.length = 0;
  counting = true;
  try {
    const res = await write();
    assert.equal(res.status, 201, res.text);
  } finally {
    counting = false;
  }
  // The key cache's fence runs on its listener connection and is shared by the requests waiting for it.
  return sent.filter((text) => !text.includes('pg_notify'));
}

test('POST /time-entries is claim, begin, one check, insert with its read-back, one side-record statement and commit', async () => {
  const eventsBefore = await countEvents(t, t.tenant);
  const statements = await statementsOf(() =>
    t.request('POST', '/time-entries', {
      key: 'write',
      headers: { 'idempotency-key': 'round-trips-1' },
      body: {
        task_id: task,
        person_id: t.tenant.ownerPersonId,
        start: '2026-03-02T09:00:00Z',
        end: '2026-03-02T10:00:00Z',
      },
    }),
  );
  assert.equal(statements.length, 6, statements.join('\n---\n'));
  assert.match(statements[0]!, /^insert into "idempotency_keys"/);
  assert.match(statements[0]!, /set_config\('synchronous_commit', 'off', true\)/, 'the claim commits asynchronously');
  assert.equal(statements[1], 'begin');
  assert.match(statements[3]!, /^with "new_entries" as \(insert into "time_entries"/);
  assert.equal(statements[5], 'commit');
  const side = statements[4]!;
  for (const table of ['events', 'activities'])
    assert.ok(side.includes(`insert into "${table}"`), `${table} in ${side}`);
  assert.match(side, /update "idempotency_keys"/);
  assert.equal(await countEvents(t, t.tenant), eventsBefore + 1, 'the event was stored');
  const stored = await t.db.db
    .selectFrom('idempotency_keys')
    .select('state')
    .where('key', '=', 'round-trips-1')
    .executeTakeFirstOrThrow();
  assert.equal(stored.state, 'done');
});

test('a bulk of 50 entries costs the same statements as one', async () => {
  const entries = Array.from({ length: 50 }, (_, i) => ({
    task_id: task,
    person_id: t.tenant.ownerPersonId,
    start: `2026-04-${String((i % 28) + 1).padStart(2, '0')}T${String(8 + Math.floor(i / 28)).padStart(2, '0')}:00:00Z`,
    duration: 1800,
  }));
  const statements = await statementsOf(() =>
    t.request('POST', '/time-entries/bulk', { key: 'write', body: { entries } }),
  );
  assert.equal(statements.length, 5, statements.join('\n---\n'));
});
