// What each scenario sends. A generator is a function returning the next request; the load process
// builds one per connection and the harness builds one for its probe, so both send the same things.
// Floors (b) serve the same /api/v3 paths and ignore the auth headers, so one request fits both targets.
import { prng } from './plan.ts';

export interface RangeData {
  first: number;
  count: number;
}

/** What a generator needs to know of one company (plain JSON: it crosses to the load process). */
export interface CompanyData {
  id: string;
  keys: Array<{ key: string; canWrite: boolean }>;
  clients: RangeData;
  tasks: RangeData;
  people: RangeData;
  entries: number;
  /** Invoices with a full page (200) of rows. */
  bigInvoices: RangeData;
  taxes: RangeData;
  /** An admin (person index 1) and their personal API key: one member, for comparing a key with a session. */
  member: { personId: number; key: string };
}

export type MixedPart =
  'client-get' | 'clients-list' | 'tasks-list' | 'entries-list' | 'entry-create' | 'client-update';
export type GenKind =
  MixedPart | 'ok' | 'fixed' | 'entries-bulk' | 'mixed' | 'invoice-get' | 'invoices-list' | 'contract-create';

export interface GenSpec {
  kind: GenKind;
  /** The companies requests go to: one for scenarios 1-6, all of them for the mixed workload. */
  companies: CompanyData[];
  /** Seeds the request stream, so service and floor get the same sequence of ids. */
  seed: number;
  /** For 'fixed': the path requested every time. */
  path?: string;
  /** Writes place their entries from here on, a minute apart: no two runs write overlapping time. */
  epochMs?: number;
  /** Makes Idempotency-Keys unique across processes and runs. */
  tag?: string;
  /** Mixed-workload parts left out (their route is missing). */
  skip?: MixedPart[];
  bulkSize?: number;
  /** Headers that authenticate every request (a session's cookie) instead of a seeded API key. */
  auth?: Record<string, string>;
}

export interface Req {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const V3 = '/api/v3';
/** Mixed workload: 80% reads, 20% writes. */
const MIX: Array<[MixedPart, number]> = [
  ['client-get', 35],
  ['clients-list', 15],
  ['tasks-list', 15],
  ['entries-list', 15],
  ['entry-create', 15],
  ['client-update', 5],
];

export function makeGenerator(spec: GenSpec): () => Req {
  const random = prng(spec.seed);
  const int = (n: number) => Math.floor(random() * n);
  const inRange = (r: RangeData) => r.first + int(r.count);
  let counter = 0;
  const slotStart = () => new Date((spec.epochMs ?? Date.UTC(2030, 0, 1)) + counter++ * 60_000);

  const headers = (c: CompanyData, write: boolean): Record<string, string> => {
    if (spec.auth) return { 'x-service-company': c.id, ...spec.auth, accept: 'application/json' };
    const keys = write ? c.keys.filter((k) => k.canWrite) : c.keys;
    return { 'x-service-company': c.id, 'x-api-key': keys[int(keys.length)]!.key, accept: 'application/json' };
  };
  const entry = (c: CompanyData) => {
    const start = slotStart();
    return {
      task_id: inRange(c.tasks),
      person_id: inRange(c.people),
      start: start.toISOString(),
      end: new Date(start.getTime() + 50_000).toISOString(),
      description: 'bench',
    };
  };
  // Finance routes need the financials tier: the company's admin key (key 0 of every seeded company).
  const adminHeaders = (c: CompanyData): Record<string, string> => ({
    'x-service-company': c.id,
    'x-api-key': c.keys[0]!.key,
    accept: 'application/json',
  });
  const contract = (c: CompanyData) => ({
    name: `Bench contract ${counter++}`,
    client_id: inRange(c.clients),
    date_from: '2030-01-01',
    rows: Array.from({ length: spec.bulkSize ?? 200 }, (_, i) => ({
      description: `Monthly service ${i + 1}`,
      quantity: 1 + (i % 4),
      unit: 'pcs',
      net_price: 10 + (i % 50) + 0.25,
      tax_id: inRange(c.taxes),
    })),
  });
  const post = (c: CompanyData, path: string, body: unknown, admin = false): Req => ({
    method: 'POST',
    path: `${V3}${path}`,
    body: JSON.stringify(body),
    headers: {
      ...(admin ? adminHeaders(c) : headers(c, true)),
      'content-type': 'application/json',
      'idempotency-key': `bench-${spec.tag ?? 'x'}-${counter}-${int(1e9)}`,
    },
  });

  const one = (kind: GenKind, c: CompanyData): Req => {
    switch (kind) {
      case 'ok':
        return { method: 'GET', path: '/ok', headers: {} };
      case 'client-get':
        return { method: 'GET', path: `${V3}/clients/${inRange(c.clients)}`, headers: headers(c, false) };
      case 'clients-list':
        return { method: 'GET', path: `${V3}/clients?limit=50`, headers: headers(c, false) };
      case 'tasks-list':
        return {
          method: 'GET',
          path: `${V3}/tasks?status=in_progress&assignee_id=${inRange(c.people)}&limit=50`,
          headers: headers(c, false),
        };
      case 'entries-list':
        return {
          method: 'GET',
          path: `${V3}/time-entries?person_id=${inRange(c.people)}&limit=50`,
          headers: headers(c, false),
        };
      case 'fixed':
        return { method: 'GET', path: spec.path!, headers: headers(c, false) };
      case 'entry-create':
        return post(c, '/time-entries', entry(c));
      case 'entries-bulk':
        return post(c, '/time-entries/bulk', { entries: Array.from({ length: spec.bulkSize ?? 200 }, () => entry(c)) });
      case 'client-update':
        return {
          method: 'PATCH',
          path: `${V3}/clients/${inRange(c.clients)}`,
          body: JSON.stringify({ address_city: `City ${int(100)}` }),
          headers: { ...headers(c, true), 'content-type': 'application/json' },
        };
      case 'invoice-get':
        return { method: 'GET', path: `${V3}/invoices/${inRange(c.bigInvoices)}`, headers: adminHeaders(c) };
      case 'invoices-list':
        return { method: 'GET', path: `${V3}/invoices?limit=50`, headers: adminHeaders(c) };
      case 'contract-create':
        return post(c, '/contracts', contract(c), true);
      case 'mixed':
        return one(pickPart(spec.skip ?? [], random), spec.companies[int(spec.companies.length)]!);
    }
  };
  return () => one(spec.kind, spec.companies[0]!);
}

function pickPart(skip: readonly MixedPart[], random: () => number): MixedPart {
  const parts = MIX.filter(([part]) => !skip.includes(part));
  const total = parts.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = random() * total;
  for (const [part, weight] of parts) {
    roll -= weight;
    if (roll < 0) return part;
  }
  return parts[parts.length - 1]![0];
}

export const MIXED_PARTS = MIX.map(([part]) => part);
export const isWrite = (part: MixedPart) => part === 'entry-create' || part === 'client-update';
