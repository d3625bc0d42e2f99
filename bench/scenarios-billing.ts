// The billing engine and its report (issue 11), measured one request at a time on the largest company, whose
// 10,000 clients are all under contract (seed-sql.ts): GET /missed-billing over windows holding about 100k, 300k
// and 900k time entries (p50 < 1 s at the largest, and growth no faster than the entries), and
// POST /clients/{id}/invoices for a client with 5,000 unbilled entries (p50 < 500 ms).
import { guarded, send, type Bench } from './harness.ts';
import { largest, missing } from './scenario-kit.ts';
import type { Req } from './requests.ts';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

function headers(bench: Bench): Record<string, string> {
  const company = largest(bench);
  return { 'x-service-company': company.id, 'x-api-key': company.keys[0]!.key, 'content-type': 'application/json' };
}

const call = (bench: Bench, method: string, path: string, body?: unknown) =>
  send(bench.service, {
    method,
    path: `/api/v3${path}`,
    headers: headers(bench),
    body: body === undefined ? undefined : JSON.stringify(body),
  } as Req);

/** Times `runs` sequential calls; pushes a row with p50/p99 and the goal. */
async function timed(
  bench: Bench,
  label: string,
  runs: Array<() => Promise<{ status: number }>>,
  goal: { text: string; ms: number },
  note: string,
) {
  const times: number[] = [];
  let errors = 0;
  const started = performance.now();
  for (const run of runs) {
    const t0 = performance.now();
    const answer = await run();
    times.push(performance.now() - t0);
    if (answer.status >= 300) errors++;
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 0.5);
  bench.rows.push({
    scenario: label,
    target: 'service',
    status: 'ok',
    rps: times.length / ((performance.now() - started) / 1000),
    p50,
    p99: percentile(times, 0.99),
    errors,
    goal: goal.text,
    met: p50 < goal.ms && errors === 0,
    note,
  });
}

const WINDOWS = [
  { label: '4 months', from: '2025-09-01', to: '2025-12-31' },
  { label: '1 year', from: '2025-01-01', to: '2025-12-31' },
  { label: '3 years', from: '2023-01-01', to: '2025-12-31' },
];

export const missedBilling = {
  id: 12,
  name: 'missed-billing',
  run: (bench: Bench) =>
    guarded(bench, '12 GET /missed-billing', async () => {
      const on = await call(bench, 'PATCH', '/company/billing-settings', { billing_active: true });
      if (on.status !== 200) return void missing(bench, '12 GET /missed-billing', `billing-settings ${on.status}`);
      for (const w of WINDOWS) {
        const path = `/missed-billing?date_from=${w.from}&date_to=${w.to}`;
        const probe = await call(bench, 'GET', path).catch((error: Error) => ({
          status: 0,
          body: `${error.message} (${(error.cause as { code?: string } | undefined)?.code})`,
        }));
        if (probe.status !== 200)
          return void missing(bench, `12 missed billing ${w.label}`, `answered ${probe.status}`);
        const entries = probe.body.items.reduce((sum: number, i: { time_entries: number }) => sum + i.time_entries, 0);
        await timed(
          bench,
          `12 GET /missed-billing, ${w.label}, 1 connection`,
          Array.from({ length: 5 }, () => () => call(bench, 'GET', path)),
          { text: 'p50 < 1 s', ms: 1000 },
          `${entries} unbilled entries in ${probe.body.items.length} items`,
        );
      }
    }),
};

const ENTRIES = 5000;

/** A new client under contract with 5,000 closed entries from June 2022 (before the seeded ones), by bulk calls. */
async function clientWithWork(bench: Bench, n: number, productId: number): Promise<number | string> {
  const company = largest(bench);
  const client = await call(bench, 'POST', '/clients', { name: `Engine bench ${n} ${Date.now()}` });
  if (client.status !== 201) return `client ${client.status}`;
  const clientId = client.body.data.id;
  const contract = await call(bench, 'POST', '/contracts', {
    client_id: clientId,
    name: 'Engine bench',
    date_from: '2022-01-01',
    settings: { invoice_time_rounding: 15 },
    rows: [{ product_id: productId, invoice_time_min: 30 }],
  });
  if (contract.status !== 201) return `contract ${contract.status} ${JSON.stringify(contract.body?.error)}`;
  const task = await call(bench, 'POST', '/tasks', { title: 'Engine bench work', client_id: clientId });
  if (task.status !== 201) return `task ${task.status}`;
  // Up to 50 people (a small scale has fewer): at scale 0.1 the entries reach into August 2022.
  const people = Math.min(50, company.people.count);
  for (let batch = 0; batch < ENTRIES / 200; batch++) {
    const entries = Array.from({ length: 200 }, (_, i) => {
      const k = batch * 200 + i;
      // Each person's entries are 6 h apart, and each client's 2 h after the previous one's: no overlaps.
      const start = Date.UTC(2022, 5, 1) + Math.floor(k / people) * 6 * 3600_000 + n * 2 * 3600_000;
      return {
        task_id: task.body.data.id,
        person_id: company.people.first + (k % people),
        start: new Date(start).toISOString(),
        end: new Date(start + (20 + (k % 90)) * 60_000).toISOString(),
      };
    });
    const res = await call(bench, 'POST', '/time-entries/bulk', { entries });
    if (res.status !== 201) return `bulk ${res.status}`;
  }
  return clientId;
}

export const billClient = {
  id: 13,
  name: 'bill-client',
  run: (bench: Bench) =>
    guarded(bench, '13 POST /clients/{id}/invoices', async () => {
      const label = `13 POST /clients/{id}/invoices (${ENTRIES} unbilled entries), 1 connection`;
      const products = await call(bench, 'GET', '/products?q=Bench%20consulting');
      const productId = products.body?.data?.[0]?.id;
      if (!productId) return void missing(bench, label, 'no seeded hourly product');
      const clients: number[] = [];
      for (let n = 0; n < 3; n++) {
        const made = await clientWithWork(bench, n, productId);
        if (typeof made === 'string') return void missing(bench, label, `setup failed: ${made}`);
        clients.push(made);
      }
      await timed(
        bench,
        label,
        clients.map(
          (id) => () =>
            call(bench, 'POST', `/clients/${id}/invoices`, { date_from: '2022-06-01', date_to: '2022-12-31' }),
        ),
        { text: 'p50 < 500 ms', ms: 500 },
        'three clients billed one after another; each run writes one draft and links 5,000 entries',
      );
    }),
};

/**
 * GET /reports/kpi-summary for a year on the largest company: the first read of a window computes it (timed
 * through POST /reports/bi/refresh, which recomputes on demand); later reads serve the snapshot (decision 0026).
 */
export const kpiSummary = {
  id: 14,
  name: 'kpi-summary',
  run: (bench: Bench) =>
    guarded(bench, '14 GET /reports/kpi-summary', async () => {
      const window = 'date_from=2025-01-01&date_to=2025-12-31';
      await timed(
        bench,
        '14 POST /reports/bi/refresh (a year computed), 1 connection',
        Array.from({ length: 3 }, () => () => call(bench, 'POST', `/reports/bi/refresh?${window}`)),
        { text: 'p50 < 1 s', ms: 1000 },
        'what a first read of a new window costs',
      );
      await timed(
        bench,
        '14 GET /reports/kpi-summary (a year, snapshot), 1 connection',
        Array.from({ length: 20 }, () => () => call(bench, 'GET', `/reports/kpi-summary?${window}`)),
        { text: 'p50 < 1 s', ms: 1000 },
        'served from the snapshot while under 10 minutes old',
      );
    }),
};
