// One load generator process: receives a LoadSpec over IPC, runs autocannon (warm-up, then the
// measured run) against the target, and sends back the figures. A process of its own, so the
// generator's CPU is never counted against the server it measures, and each run starts cold.
import autocannon from 'autocannon';
import { makeGenerator, type GenSpec } from './requests.ts';

export interface LoadSpec {
  url: string;
  connections: number;
  duration: number;
  warmup: number;
  gen: GenSpec;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  requests: number;
  /** Socket errors, time-outs and non-2xx answers together. */
  errors: number;
  statusCodes: Record<string, number>;
}

function run(spec: LoadSpec, seconds: number, next: ReturnType<typeof makeGenerator>): Promise<autocannon.Result> {
  return autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: seconds,
    timeout: 30,
    requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }],
  });
}

async function measure(spec: LoadSpec): Promise<LoadResult> {
  const next = makeGenerator(spec.gen);
  if (spec.warmup > 0) await run(spec, spec.warmup, next);
  const result = await run(spec, spec.duration, next);
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {}))
    statusCodes[code] = (stats as { count: number }).count;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    mean: result.latency.average,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
    statusCodes,
  };
}

process.once('message', (spec: LoadSpec) => {
  measure(spec).then(
    (result) => process.send!(result, () => process.exit(0)),
    (error) => {
      console.error('load generator failed:', error);
      process.exit(1);
    },
  );
});
