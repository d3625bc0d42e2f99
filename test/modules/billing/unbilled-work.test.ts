// The unbilled-work rollup (docs/decisions/0070): every kind of change reaches the missed-billing report through
// it, it stays exact under concurrent writes, billing runs and reports, and after the service is killed mid-write
// (the check command recomputes it from the entries and finds no difference).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { makeDataDir, startService } from '../../main/support.ts';
import { makeHome, svc, SLOW } from '../../cli/support.ts';
import { billingFixtures } from './support.ts';

const t = await createTestApp();
const tenant = await t.newTenant({ name: 'Rollup Co', timezone: 'Europe/Tallinn' });
const f = billingFixtures(t, tenant);
const databaseUrl = t.db.pool.options.connectionString as string;
const home = await makeHome();
const OCTOBER = 'date_from=2026-10-01&date_to=2026-10-31';

async function missed(clientId: number) {
  const res = await t.request('GET', `/missed-billing?${OCTOBER}&client_id=${clientId}`, { tenant });
  assert.equal(res.status, 200, res.text);
  return res.body.items.map((i: Record<string, unknown>) => [i.unbilled_hours, i.time_entries, i.recoverable_value]);
}

/** The check command, as an operator runs it: exit 0 and no difference. */
async function assertExact() {
  const args = ['unbilled-work', 'check', '--company', tenant.companyId, '--json'];
  const result = await svc(home, args, { DATABASE_URL: databaseUrl });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), { failed: [], differences: [] });
}

const dirtyCount = async () =>
  (
    await t.db.db
      .selectFrom('unbilled_work_dirty')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('company_id', '=', tenant.companyId)
      .executeTakeFirstOrThrow()
  ).n;

async function hourlySetup(name: string) {
  await f.setBilling(true);
  const client = await f.client(`${name} Ltd`);
  const product = await f.hourly(`${name} hours`);
  await f.price(product, '90');
  const contract = await f.contract(client);
  const row = await f.row(contract, { product_id: product });
  const task = await f.task(client, null, `${name} task`);
  return { client, product, contract, row, task };
}

test('each kind of change reaches the report through the rollup', SLOW, async () => {
  const s = await hourlySetup('Changes');
  const [, e2] = await f.entries(s.task, [
    ['2026-10-05T08:00:00Z', '2026-10-05T10:00:00Z'],
    ['2026-10-06T08:00:00Z', '2026-10-06T09:00:00Z'],
  ]);
  assert.deepEqual(await missed(s.client), [[3, 2, 270]]);
  assert.equal(Number(await dirtyCount()), 0, 'the report drained the log');
  const stored = await t.db.db
    .selectFrom('unbilled_work')
    .selectAll()
    .where('company_id', '=', tenant.companyId)
    .execute();
  assert.deepEqual(stored.map((g) => [g.day, g.task_key, Number(g.price), Number(g.billed_secs), g.entries]).sort(), [
    ['2026-10-05', s.task, 90, 7200, 1],
    ['2026-10-06', s.task, 90, 3600, 1],
  ]);

  const patched = await t.request('PATCH', `/time-entries/${e2}`, { tenant, body: { end: '2026-10-06T09:30:00Z' } });
  assert.equal(patched.status, 200, patched.text);
  assert.deepEqual(await missed(s.client), [[3.5, 2, 315]], 'an entry edited');
  await f.price(s.product, '100', '2026-10-06');
  assert.deepEqual(await missed(s.client), [[3.5, 2, 330]], "the product's new price from 6 October");
  await f.insert('contract_row_prices', { contract_row_id: s.row, net_price: '50', active_from: '2000-01-01' });
  assert.deepEqual(await missed(s.client), [[3.5, 2, 175]], "the contract row's own price");
  await t.db.db
    .updateTable('contracts')
    .set({ settings: JSON.stringify({ invoice_time_rounding: 60 }) } as never)
    .where('company_id', '=', tenant.companyId)
    .where('id', '=', s.contract)
    .execute();
  assert.deepEqual(await missed(s.client), [[4, 2, 200]], "the contract's rounding to the hour");
  assert.equal((await t.request('DELETE', `/time-entries/${e2}`, { tenant })).status, 204);
  assert.deepEqual(await missed(s.client), [[2, 1, 100]], 'an entry deleted');

  const internal = await f.topic('Internal', 0);
  const toTopic = await t.request('PATCH', `/tasks/${s.task}`, { tenant, body: { topic_id: internal } });
  assert.equal(toTopic.status, 200, toTopic.text);
  assert.deepEqual(await missed(s.client), [], 'a non-billable topic');
  await t.db.db.updateTable('topics').set({ billable: 1 }).where('company_id', '=', tenant.companyId).execute();
  assert.deepEqual(await missed(s.client), [[2, 1, 100]], 'the topic made billable');

  const billed = await f.bill(s.client, { date_from: '2026-10-01', date_to: '2026-10-31' });
  assert.equal(billed.status, 201, billed.text);
  assert.deepEqual(await missed(s.client), [], 'billed by the engine');
  const invoice = billed.body.data.invoices[0];
  const removed = await t.request('DELETE', `/invoices/${invoice.id}/rows/${invoice.rows[0].id}`, { tenant });
  assert.equal(removed.status, 204, removed.text);
  assert.deepEqual(await missed(s.client), [[2, 1, 100]], 'released when its invoice row was removed');

  const other = await f.client('Other Ltd');
  const moved = await t.request('PATCH', `/tasks/${s.task}`, { tenant, body: { client_id: other } });
  assert.equal(moved.status, 200, moved.text);
  assert.deepEqual(await missed(s.client), [], 'the task moved to a client without a contract');
  await assertExact();
});

test('a window that cuts a quarter reads the days inside it; one that covers it reads the whole quarter', async () => {
  await f.setBilling(true);
  const client = await f.client('Quarterly Ltd');
  const product = await f.hourly('Quarterly hours');
  await f.price(product, '90');
  await f.row(await f.contract(client, { invoice_period: 'quarter' }), { product_id: product });
  const task = await f.task(client, null, 'Quarterly task');
  await f.entries(task, [
    ['2025-10-05T08:00:00Z', '2025-10-05T09:00:00Z'],
    ['2025-11-10T08:00:00Z', '2025-11-10T09:30:00Z'],
    ['2025-11-20T08:00:00Z', '2025-11-20T08:20:00Z'],
    ['2025-12-03T08:00:00Z', '2025-12-03T10:00:00Z'],
  ]);
  const read = async (from: string, to: string) => {
    const res = await t.request('GET', `/missed-billing?date_from=${from}&date_to=${to}&client_id=${client}`, {
      tenant,
    });
    assert.equal(res.status, 200, res.text);
    return res.body.items.map((i: Record<string, unknown>) => [
      i.period_from,
      i.period_until,
      i.unbilled_hours,
      i.time_entries,
      i.recoverable_value,
    ]);
  };
  // The whole quarter: 4 h 50 min, one group (row, quarter, task, price): 4.8333 h × 90 = 435.00.
  assert.deepEqual(await read('2025-10-01', '2025-12-31'), [['2025-10-01', '2025-12-31', 4.83, 4, 435]]);
  // Cut at its start: 20 min + 2 h = 2.3333 h × 90 = 210.00.
  assert.deepEqual(await read('2025-11-15', '2025-12-31'), [['2025-10-01', '2025-12-31', 2.33, 2, 210]]);
  // Cut at its end: 1 h + 1.5 h = 225.00.
  assert.deepEqual(await read('2025-10-01', '2025-11-15'), [['2025-10-01', '2025-12-31', 2.5, 2, 225]]);
  // Cut at both ends: 1.5 h + 20 min = 1.8333 h × 90 = 165.00.
  assert.deepEqual(await read('2025-11-01', '2025-11-30'), [['2025-10-01', '2025-12-31', 1.83, 2, 165]]);
  // A window of two quarters reads the whole fourth and nothing of the third.
  assert.deepEqual(await read('2025-07-01', '2025-12-31'), [['2025-10-01', '2025-12-31', 4.83, 4, 435]]);
});

test('a client whose contract cannot be read keeps no groups, is reported, and is rebuilt once it is fixed', async () => {
  const s = await hourlySetup('Broken');
  await f.entries(s.task, [['2026-10-08T08:00:00Z', '2026-10-08T09:00:00Z']]);
  assert.deepEqual(await missed(s.client), [[1, 1, 90]]);
  const settings = (value: unknown) =>
    t.db.db
      .updateTable('contracts')
      .set({ settings: JSON.stringify({ invoice_time_rounding: value }) } as never)
      .where('company_id', '=', tenant.companyId)
      .where('id', '=', s.contract)
      .execute();
  const groups = async () =>
    (
      await t.db.db
        .selectFrom('unbilled_work')
        .select('client_id')
        .where('company_id', '=', tenant.companyId)
        .where('client_id', '=', s.client)
        .execute()
    ).length;
  await settings('soon');
  const broken = await t.request('GET', `/missed-billing?${OCTOBER}`, { tenant });
  assert.equal(broken.status, 200, broken.text);
  assert.deepEqual(
    broken.body.failed_clients.map((c: { client_id: number }) => c.client_id),
    [s.client],
  );
  assert.ok(broken.body.items.every((i: { client_id: number }) => i.client_id !== s.client));
  assert.equal(await groups(), 0, 'no stale groups');
  assert.ok(Number(await dirtyCount()) >= 1, 'still on the log');
  await settings(60);
  assert.deepEqual(await missed(s.client), [[1, 1, 90]]);
  assert.equal(await groups(), 1);
  await assertExact();
});

test('concurrent entry writes, billing runs and reports leave the rollup exact', SLOW, async () => {
  const setups = [await hourlySetup('Busy A'), await hourlySetup('Busy B'), await hourlySetup('Busy C')];
  await f.entries(setups[0]!.task, [['2026-10-01T08:00:00Z', '2026-10-01T09:00:00Z']]);
  const write = (i: number) => {
    const s = setups[i % 3]!;
    const day = String(1 + (i % 28)).padStart(2, '0');
    return t.request('POST', '/time-entries', {
      tenant,
      body: {
        task_id: s.task,
        person_id: tenant.ownerPersonId,
        start: `2026-10-${day}T${String(6 + (i % 12)).padStart(2, '0')}:00:00Z`,
        end: `2026-10-${day}T${String(6 + (i % 12)).padStart(2, '0')}:45:00Z`,
      },
    });
  };
  const answers = await Promise.all([
    ...Array.from({ length: 36 }, (_, i) => write(i)),
    f.bill(setups[0]!.client, { date_from: '2026-10-01', date_to: '2026-10-31' }),
    f.bill(setups[1]!.client, { date_from: '2026-10-01', date_to: '2026-10-31' }),
    ...setups.map((s) => t.request('GET', `/missed-billing?${OCTOBER}&client_id=${s.client}`, { tenant })),
    t.request('GET', `/missed-billing?${OCTOBER}`, { tenant }),
  ]);
  // Entries may collide with a person's other entries (409) or land in a billed period; none fails otherwise.
  assert.ok(
    answers.every((a) => a.status < 300 || a.status === 409 || a.status === 422),
    answers.map((a) => a.status).join(),
  );
  assert.ok(answers.filter((a) => a.status === 201).length >= 30, answers.map((a) => a.status).join());
  await assertExact();
});

test('the check command finds a group that differs from the entries', SLOW, async () => {
  const s = await hourlySetup('Tampered');
  await f.entries(s.task, [['2026-10-07T08:00:00Z', '2026-10-07T09:00:00Z']]);
  assert.deepEqual(await missed(s.client), [[1, 1, 90]]);
  await t.db.db
    .updateTable('unbilled_work')
    .set({ billed_secs: 3601 })
    .where('company_id', '=', tenant.companyId)
    .where('client_id', '=', s.client)
    .execute();
  await t.db.db
    .updateTable('unbilled_work_periods')
    .set({ value: '91.00' })
    .where('company_id', '=', tenant.companyId)
    .where('client_id', '=', s.client)
    .execute();
  const args = ['unbilled-work', 'check', '--company', tenant.companyId, '--json'];
  const found = await svc(home, args, { DATABASE_URL: databaseUrl });
  assert.equal(found.code, 1);
  const { error } = JSON.parse(found.stderr);
  assert.match(error.message, /differs from its entries/);
  assert.match(error.message, new RegExp(`"side":"missing","client_id":${s.client}`));
  assert.match(error.message, new RegExp(`"side":"extra","client_id":${s.client}`));
  assert.match(error.message, new RegExp(`"side":"extra period","client_id":${s.client}`));
  const unknown = await svc(home, ['unbilled-work', 'check', '--company', 'nope', '--json'], {
    DATABASE_URL: databaseUrl,
  });
  assert.equal(unknown.code, 1);
  assert.equal(JSON.parse(unknown.stderr).error.code, 'VALIDATION_ERROR');
  // Marked dirty, the client is rebuilt at the next catch-up.
  await f.insert('unbilled_work_dirty', { client_id: s.client });
  await assertExact();
});

test('the rollup is exact after the service is killed in the middle of writes', SLOW, async () => {
  const s = await hourlySetup('Killed');
  assert.deepEqual(await missed(s.client), []);
  const service = startService(await makeDataDir(), {
    DATABASE_URL: databaseUrl,
    SVC_RATE_LIMIT_READ: '0',
    SVC_RATE_LIMIT_WRITE: '0',
    SVC_RATE_LIMIT_ADDRESS: '0',
  });
  const [, baseUrl] = await service.waitFor(/^listening on (http:\/\/127\.0\.0\.1:\d+) /);
  const headers = {
    'content-type': 'application/json',
    'x-service-company': tenant.companyId,
    'x-api-key': tenant.keys.admin,
  };
  let answered = 0;
  const writes = Array.from({ length: 60 }, (_, i) =>
    fetch(`${baseUrl}/api/v3/time-entries`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        task_id: s.task,
        person_id: tenant.ownerPersonId,
        start: new Date(Date.UTC(2026, 9, 1, 0, i * 20)).toISOString(),
        end: new Date(Date.UTC(2026, 9, 1, 0, i * 20 + 15)).toISOString(),
      }),
    }).then(
      (res) => (answered += res.status === 201 ? 1 : 0),
      () => 'lost',
    ),
  );
  while (answered < 10) await new Promise((r) => setTimeout(r, 5));
  service.child.kill('SIGKILL');
  assert.equal((await service.exited).signal, 'SIGKILL');
  await Promise.all(writes);
  const kept = await t.db.db
    .selectFrom('time_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', tenant.companyId)
    .where('task_id', '=', s.task)
    .executeTakeFirstOrThrow();
  assert.ok(Number(kept.n) >= answered && Number(kept.n) < 60, `entries kept: ${kept.n}, created: ${answered}`);
  await assertExact();
  const [[hours, entries]] = await missed(s.client);
  assert.deepEqual([hours, entries], [Number(kept.n) * 0.25, Number(kept.n)]);
});
