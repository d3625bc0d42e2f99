// Workflow templates (issue 13): applying a 30-task template to 200 clients of the largest company, as a job,
// timed from POST .../apply to the job's end (goal < 10 s); three templates, so each run creates 6,000 tasks.
import { guarded, send, type Bench } from './harness.ts';
import { largest, missing } from './scenario-kit.ts';
import type { Req } from './requests.ts';

const TASKS = 30;
const CLIENTS = 200;

const call = (bench: Bench, method: string, path: string, body?: unknown) => {
  const company = largest(bench);
  return send(bench.service, {
    method,
    path: `/api/v3${path}`,
    headers: { 'x-service-company': company.id, 'x-api-key': company.keys[0]!.key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  } as Req);
};

async function clientIds(bench: Bench): Promise<number[]> {
  const ids: number[] = [];
  for (let offset = 0; ids.length < CLIENTS; offset += 100) {
    const page = await call(bench, 'GET', `/clients?limit=100&offset=${offset}`);
    const rows = (page.body?.data ?? []) as Array<{ id: number }>;
    if (rows.length === 0) break;
    ids.push(...rows.map((r) => r.id));
  }
  return ids.slice(0, CLIENTS);
}

/** A template with TASKS master tasks; its id, or why it could not be made. */
async function template(bench: Bench, n: number): Promise<number | string> {
  const made = await call(bench, 'POST', '/workflow-templates', { name: `Bench onboarding ${n} ${Date.now()}` });
  if (made.status !== 201) return `template ${made.status}`;
  const id = made.body.data.id as number;
  for (let k = 0; k < TASKS; k++) {
    const task = await call(bench, 'POST', `/workflow-templates/${id}/tasks`, {
      title: `Step ${k + 1}`,
      due_in_days: k,
    });
    if (task.status !== 201) return `master task ${task.status}`;
  }
  return id;
}

/** Milliseconds from the apply request to the job's end, or why it failed. */
async function applyTimed(bench: Bench, id: number, clients: number[]): Promise<number | string> {
  const started = performance.now();
  const res = await call(bench, 'POST', `/workflow-templates/${id}/apply`, { client_ids: clients });
  if (res.status !== 202) return `apply ${res.status}`;
  const jobId = res.body.data.id as number;
  for (;;) {
    const job = await call(bench, 'GET', `/jobs/${jobId}`);
    const status = job.body?.data?.status;
    if (status === 'finished') return performance.now() - started;
    if (status === 'failed' || job.status !== 200) return `job ${status ?? job.status}`;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const workflowApply = {
  id: 15,
  name: 'workflow-apply',
  run: (bench: Bench) =>
    guarded(bench, '15 POST /workflow-templates/{id}/apply', async () => {
      const label = `15 POST /workflow-templates/{id}/apply (${TASKS} tasks × ${CLIENTS} clients), job to its end`;
      const clients = await clientIds(bench);
      if (clients.length < CLIENTS) return void missing(bench, label, `only ${clients.length} clients`);
      const times: number[] = [];
      for (let n = 0; n < 3; n++) {
        const id = await template(bench, n);
        if (typeof id === 'string') return void missing(bench, label, `setup failed: ${id}`);
        const ms = await applyTimed(bench, id, clients);
        if (typeof ms === 'string') return void missing(bench, label, ms);
        times.push(ms);
      }
      times.sort((a, b) => a - b);
      bench.rows.push({
        scenario: label,
        target: 'service',
        status: 'ok',
        rps: (3 * 1000) / times.reduce((a, b) => a + b, 0),
        p50: times[1]!,
        p99: times[2]!,
        errors: 0,
        goal: 'p50 < 10 s',
        met: times[1]! < 10_000,
        note: `three templates applied one after another to the same ${CLIENTS} clients; ${TASKS * CLIENTS} tasks each`,
      });
    }),
};
