// Small pieces every scenario file uses.
import type { Bench } from './harness.ts';
import type { GenKind, GenSpec } from './requests.ts';

export const largest = (bench: Bench) => bench.companies[0]!;
export const gen = (bench: Bench, kind: GenKind, seed: number, extra: Partial<GenSpec> = {}): GenSpec => ({
  kind,
  companies: [largest(bench)],
  seed,
  ...extra,
});
export const tag = (name: string) => `${name}-${Date.now().toString(36)}`;
export const missing = (bench: Bench, scenario: string, status: string) =>
  bench.rows.push({ scenario, target: 'service', status });
