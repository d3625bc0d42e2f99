import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type KeyName } from '../../helpers.ts';

const t = await createTestApp();
const slow = await createTestApp({ digitizeTimeLimitMs: 1 });

/** 100,000 characters (the most a document carries) of `unit` repeated after `prefix`. */
const crafted = (unit: string, prefix = '') => (prefix + unit.repeat(100_000)).slice(0, 100_000);

/** Texts that made the rules backtrack (quadratic on digit runs, cubic on a keyword followed by spaces). */
const HOSTILE: Array<[string, string]> = [
  ['digit run', crafted('1')],
  ['currency and digit run', crafted('1', '€')],
  ['grouped digits', crafted('1 000 ')],
  ['invoice and spaces', crafted(' ', 'invoice')],
  ['invoice no and line breaks', crafted('\n', 'invoice no')],
  ['e-mail shaped', crafted('a.a.a.a.@')],
];

async function post(app: typeof t, path: string, body: unknown, key: KeyName = 'write'): Promise<any> {
  const res = await app.request('POST', path, { body, key });
  assert.equal(res.status, 201, res.text.slice(0, 300));
  return res.body.data;
}

/** GET /health, timed from the test's side (the same process: a blocked event loop shows here too). */
async function healthMs(): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${t.baseUrl}/api/v3/health`);
  assert.equal(res.status, 200);
  await res.arrayBuffer();
  return performance.now() - started;
}

async function status(app: typeof t, id: number, key: KeyName): Promise<any> {
  const res = await app.request('GET', `/digitizations/${id}`, { key });
  assert.equal(res.status, 200, res.text.slice(0, 300));
  return res.body.data;
}

// A backtracking rule blocked the event loop for seconds to minutes on these texts; 1 s tells that apart from a
// loaded CI machine's scheduling (one run saw 212 ms), which a 200 ms bound did not.
const HEALTH_BOUND_MS = 1_000;

test('crafted 100,000-character texts are digitized while GET /health keeps answering within a second', async () => {
  // A member's personal key may ask too: its own client.
  const own = await post(t, '/clients', { name: 'Member client' }, 'personal');
  const shared = await post(t, '/clients', { name: 'Crafted texts' });
  const started: Array<{ id: number; key: KeyName; text: string }> = [];
  for (const [i, [name, text]] of HOSTILE.entries()) {
    const key: KeyName = i === 0 ? 'personal' : 'write';
    const doc = await post(
      t,
      '/documents',
      { client_id: key === 'personal' ? own.id : shared.id, name, text_content: text },
      key,
    );
    started.push({ id: (await post(t, '/digitizations', { document_id: doc.id }, key)).id, key, text });
  }
  const latencies: number[] = [];
  const deadline = Date.now() + 60_000;
  let pending = started;
  while (pending.length > 0 && Date.now() < deadline) {
    latencies.push(await healthMs());
    assert.ok(latencies.at(-1)! < HEALTH_BOUND_MS, `GET /health took ${Math.round(latencies.at(-1)!)} ms`);
    const states = await Promise.all(pending.map((d) => status(t, d.id, d.key)));
    pending = pending.filter((_, i) => !['finished', 'failed'].includes(states[i].status));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.deepEqual(pending, [], 'every digitization ended within a minute');
  latencies.push(await healthMs());
  assert.ok(
    Math.max(...latencies) < HEALTH_BOUND_MS,
    `GET /health took up to ${Math.round(Math.max(...latencies))} ms`,
  );

  for (const { id, key, text } of started) {
    const done = await status(t, id, key);
    assert.equal(done.status, 'finished', JSON.stringify(done).slice(0, 300));
    assert.equal(done.result.extractor, 'text-rules-2');
    assert.equal(done.result.characters, text.length);
    const row = await t.db.db
      .selectFrom('digitizations')
      .select('result')
      .where('company_id', '=', t.tenant.companyId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row.result, done.result);
  }
  const grouped = await status(t, started[2]!.id, 'write');
  assert.ok(grouped.result.amounts.length <= 50);
});

test('the rules still read ordinary text after the bounds', async () => {
  const client = await post(t, '/clients', { name: 'Ordinary' });
  const text =
    'Invoice no:\n  INV-77 order # A-1/2 total € 1 234 567,50, 12 EUR; mail x.y@example.org. ref12345 invoices';
  const doc = await post(t, '/documents', { client_id: client.id, name: 'Ordinary', text_content: text });
  const { id } = await post(t, '/digitizations', { document_id: doc.id });
  let done = await status(t, id, 'write');
  for (let i = 0; i < 500 && !['finished', 'failed'].includes(done.status); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    done = await status(t, id, 'write');
  }
  assert.equal(done.status, 'finished', JSON.stringify(done));
  assert.deepEqual(done.result.references, ['INV-77', 'A-1/2', '12345']);
  assert.deepEqual(done.result.amounts, [
    { value: '1234567.50', currency: 'EUR' },
    { value: '12', currency: 'EUR' },
  ]);
  assert.deepEqual(done.result.emails, ['x.y@example.org']);
});

test('extraction over its time limit is stopped: the digitization fails with the reason, nothing is stored', async () => {
  const client = await post(slow, '/clients', { name: 'Slow' });
  const doc = await post(slow, '/documents', { client_id: client.id, name: 'Slow', text_content: crafted('1 000 ') });
  const { id, job_id } = await post(slow, '/digitizations', { document_id: doc.id });
  let done = await status(slow, id, 'write');
  for (let i = 0; i < 500 && !['finished', 'failed'].includes(done.status); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    done = await status(slow, id, 'write');
  }
  assert.equal(done.status, 'failed', JSON.stringify(done));
  assert.equal(done.error, 'the text could not be digitized within 0.001 s');
  assert.equal(done.result, null);
  const job = await slow.request('GET', `/jobs/${job_id}`);
  assert.equal(job.body.data.status, 'failed');
  assert.equal(job.body.data.error, done.error);
});
