// Finance writes measured at one connection (issue 10): a contract created with 200 rows, and a draft of
// 200 rows finalized. Both are judged by p50 < 100 ms; they have no floor (b) of their own.
import { guarded, measure, probe, rowOf, send, type Bench } from './harness.ts';
import { gen, largest, missing, tag } from './scenario-kit.ts';
import type { Req } from './requests.ts';

const ROWS = 200;
const FINALIZED = 40;

export const contractCreate = {
  id: 10,
  name: 'contract-create',
  run: (bench: Bench) =>
    guarded(bench, '10 POST /contracts (200 rows)', async () => {
      const label = '10 POST /contracts (200 rows), 1 connection';
      const first = await probe(bench, gen(bench, 'contract-create', 10, { tag: tag('probe'), bulkSize: ROWS }));
      if (first.problem) return void missing(bench, label, first.problem);
      const m = await measure(
        bench,
        bench.service,
        gen(bench, 'contract-create', 10, { tag: tag('c'), bulkSize: ROWS }),
        1,
      );
      bench.rows.push(rowOf(label, 'service', m, { goal: 'p50 < 100 ms', met: m.load.p50 < 100 }));
    }),
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

function admin(bench: Bench): Record<string, string> {
  const company = largest(bench);
  return { 'x-service-company': company.id, 'x-api-key': company.keys[0]!.key, 'content-type': 'application/json' };
}

/** Drafts of 200 rows made through the API, each answered with the ETag a finalization must carry. */
async function makeDrafts(bench: Bench, n: number): Promise<Array<{ id: number; etag: string }> | string> {
  const company = largest(bench);
  const drafts: Array<{ id: number; etag: string }> = [];
  for (let i = 0; i < n; i++) {
    const rows = Array.from({ length: ROWS }, (_, r) => ({
      description: `Service ${r + 1}`,
      quantity: 1 + (r % 3),
      net_price: 12.5 + (r % 40),
      tax_id: company.taxes.first + (r % company.taxes.count),
    }));
    const req: Req = {
      method: 'POST',
      path: '/api/v3/invoices',
      headers: admin(bench),
      body: JSON.stringify({ client_id: company.clients.first + i, rows }),
    };
    const answer = await send(bench.service, req);
    if (answer.status !== 201) return `draft answered ${answer.status} ${answer.body?.error?.code ?? ''}`;
    drafts.push({ id: answer.body.data.id, etag: `"${answer.body.data.updated_at}"` });
  }
  return drafts;
}

export const invoiceFinalize = {
  id: 11,
  name: 'invoice-finalize',
  run: (bench: Bench) =>
    guarded(bench, '11 PATCH /invoices/{id} status=created (200 rows)', async () => {
      const label = '11 finalize a 200-row invoice, 1 connection';
      const drafts = await makeDrafts(bench, FINALIZED);
      if (typeof drafts === 'string') return void missing(bench, label, `failed: ${drafts}`);
      const times: number[] = [];
      let errors = 0;
      const started = performance.now();
      for (const draft of drafts) {
        const t0 = performance.now();
        const answer = await send(bench.service, {
          method: 'PATCH',
          path: `/api/v3/invoices/${draft.id}`,
          headers: { ...admin(bench), 'if-match': draft.etag },
          body: JSON.stringify({ status: 'created' }),
        });
        times.push(performance.now() - t0);
        if (answer.status !== 200) errors++;
      }
      const seconds = (performance.now() - started) / 1000;
      times.sort((a, b) => a - b);
      const p50 = percentile(times, 0.5);
      bench.rows.push({
        scenario: label,
        target: 'service',
        status: 'ok',
        rps: times.length / seconds,
        p50,
        p99: percentile(times, 0.99),
        errors,
        goal: 'p50 < 100 ms',
        met: p50 < 100 && errors === 0,
        note: `${times.length} drafts finalized one after another`,
      });
    }),
};
