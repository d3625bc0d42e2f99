// The shape of the benchmark data set, decided in TypeScript before any row is written: company ids,
// sizes, id ranges and API keys all follow from (scale, seed), so the harness knows what exists
// without reading it back, and two runs with the same seed produce the same database.
import { expandScopes } from '../src/platform/scopes.ts';
import { hashKey, KEY_PREFIX } from '../src/platform/keys.ts';

/** Sizes of the largest company at scale 1; the other nineteen get a long tail of these. */
export const LARGEST = {
  clients: 10_000,
  contactsPerClient: 3,
  tasks: 100_000,
  entries: 1_000_000,
  people: 200,
  invoices: 100_000,
};
/** The first invoices of a company carry a full page of inlined rows; the rest a typical handful. */
export const INVOICE_ROWS = { big: 200, bigShare: 0.005, typical: 10 };
export const TAXES_PER_COMPANY = 3;
export const COMPANIES = 20;
export const KEYS_PER_COMPANY = 10;
export const TOPICS_PER_COMPANY = 10;
/** Time entries span these three years; writes made by the benchmark go after them. */
export const ENTRIES_FROM = Date.UTC(2023, 0, 1);
export const ENTRIES_SPAN_SECONDS = 3 * 365 * 86_400;

export interface KeyPlan {
  fullKey: string;
  prefix: string;
  hash: string;
  kind: 'integration' | 'personal';
  scopes: string[];
  /** Index (0-based) of the person the key acts for within its company. */
  personIndex: number;
  canWrite: boolean;
}

export interface Range {
  /** First id; the range is first .. first + count - 1. */
  first: number;
  count: number;
}

export interface CompanyPlan {
  index: number;
  id: string;
  name: string;
  timezone: string;
  people: number;
  clients: number;
  contacts: number;
  tasks: number;
  entries: number;
  topics: number;
  taxes: number;
  invoices: number;
  /** Invoices 0 .. bigInvoices - 1 have INVOICE_ROWS.big rows each, the others INVOICE_ROWS.typical. */
  bigInvoices: number;
  invoiceRows: number;
  keys: KeyPlan[];
}

export type Table =
  | 'people'
  | 'members'
  | 'api_keys'
  | 'topics'
  | 'clients'
  | 'contacts'
  | 'tasks'
  | 'time_entries'
  | 'taxes'
  | 'invoices'
  | 'invoice_rows';
export const TABLES: readonly Table[] = [
  'people',
  'members',
  'api_keys',
  'topics',
  'clients',
  'contacts',
  'tasks',
  'time_entries',
  'taxes',
  'invoices',
  'invoice_rows',
];

/** A company's id ranges, once the seeder knows where each table's ids start. */
export type CompanyRanges = Record<Table, Range>;
export interface SeededCompany extends CompanyPlan {
  ranges: CompanyRanges;
}

/** mulberry32: small, fast and good enough for test data; the same seed gives the same stream everywhere. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function bytes(next: () => number, n: number): Buffer {
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(next() * 256);
  return out;
}

function uuidFrom(next: () => number): string {
  const b = bytes(next, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Person 0 is the owner, 1-2 are admins: the personal keys act for admins, so they see the whole company. */
const KEY_MIX: Array<Pick<KeyPlan, 'kind' | 'personIndex' | 'canWrite'> & { scope: string }> = [
  { kind: 'integration', scope: 'admin', personIndex: 0, canWrite: true },
  ...Array.from({ length: 5 }, () => ({
    kind: 'integration' as const,
    scope: 'write',
    personIndex: 0,
    canWrite: true,
  })),
  ...Array.from({ length: 2 }, () => ({
    kind: 'integration' as const,
    scope: 'read',
    personIndex: 0,
    canWrite: false,
  })),
  { kind: 'personal', scope: 'read+write', personIndex: 1, canWrite: true },
  { kind: 'personal', scope: 'read+write', personIndex: 2, canWrite: true },
];

function keysFor(next: () => number): KeyPlan[] {
  return KEY_MIX.slice(0, KEYS_PER_COMPANY).map((k) => {
    const fullKey = KEY_PREFIX + bytes(next, 24).toString('base64url');
    const scopes = expandScopes(k.scope === 'read+write' ? ['read', 'write'] : [k.scope]);
    return {
      fullKey,
      prefix: fullKey.slice(0, KEY_PREFIX.length + 6),
      hash: hashKey(fullKey),
      kind: k.kind,
      scopes,
      personIndex: k.personIndex,
      canWrite: k.canWrite,
    };
  });
}

const TIMEZONES = ['Europe/Tallinn', 'UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Tokyo'];
const atLeast = (min: number, value: number) => Math.max(min, Math.round(value));

/** Company 0 is the largest; company k (1..19) is 1/(10k) of it, a long tail like real tenants. */
export function planCompanies(scale: number, seed: number): CompanyPlan[] {
  const next = prng(seed);
  return Array.from({ length: COMPANIES }, (_, index) => {
    const factor = scale * (index === 0 ? 1 : 0.1 / index);
    const clients = atLeast(2, LARGEST.clients * factor);
    const invoices = atLeast(5, LARGEST.invoices * factor);
    const bigInvoices = atLeast(1, invoices * INVOICE_ROWS.bigShare);
    return {
      index,
      id: uuidFrom(next),
      name: `Bench Company ${String(index + 1).padStart(2, '0')}`,
      timezone: TIMEZONES[index % TIMEZONES.length]!,
      people: atLeast(5, LARGEST.people * factor),
      clients,
      contacts: clients * LARGEST.contactsPerClient,
      tasks: atLeast(5, LARGEST.tasks * factor),
      entries: atLeast(10, LARGEST.entries * factor),
      topics: TOPICS_PER_COMPANY,
      taxes: TAXES_PER_COMPANY,
      invoices,
      bigInvoices,
      invoiceRows: bigInvoices * INVOICE_ROWS.big + (invoices - bigInvoices) * INVOICE_ROWS.typical,
      keys: keysFor(next),
    };
  });
}

const rowsOf = (c: CompanyPlan): Record<Table, number> => ({
  people: c.people,
  members: c.people,
  api_keys: c.keys.length,
  topics: c.topics,
  clients: c.clients,
  contacts: c.contacts,
  tasks: c.tasks,
  time_entries: c.entries,
  taxes: c.taxes,
  invoices: c.invoices,
  invoice_rows: c.invoiceRows,
});

/** Contiguous id ranges per company, starting after the ids a table already holds. */
export function assignRanges(plans: readonly CompanyPlan[], maxIds: Record<Table, number>): SeededCompany[] {
  const cursor = { ...maxIds };
  return plans.map((plan) => {
    const rows = rowsOf(plan);
    const ranges = {} as CompanyRanges;
    for (const table of TABLES) {
      ranges[table] = { first: cursor[table] + 1, count: rows[table] };
      cursor[table] += rows[table];
    }
    return { ...plan, ranges };
  });
}

/** A person id of the company by its 0-based index. */
export const personId = (c: SeededCompany, index: number) => c.ranges.people.first + index;
