import type { FastifyPluginAsync } from 'fastify';
import type { Db, Executor } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import type { Config } from '../config.ts';
import type { Ctx } from './context.ts';
import type { KeyRow } from './auth.ts';
import {
  installEventCatalogue,
  installWebOriginEvents,
  type EventAction,
  type EventCatalogue,
  type WebOriginEvents,
} from './events.ts';
import type { KeyCache } from './key-cache.ts';
import type { RateLimits } from './ratelimit.ts';
import { installVisibility, type VisibilityRule } from './visibility.ts';
import { TABLES_OUTSIDE_MODULES } from './tables.ts';

/** What a job runner hands a handler: the claimed row's progress, so a resumed job goes on where it stopped. */
export interface ClaimedJob {
  company_id: string;
  id: number;
  type: string;
  params: unknown;
  api_key_id: number | null;
  /** The member a job started from a web session acts for (api_key_id is then null). */
  session_person_id: number | null;
  processed_count: number;
  failed_count: number | null;
  target_ids: number[] | null;
  /** How many times the job has been started, this run included. */
  attempts: number;
}

/** What the process running a job offers its handler (e.g. the mail settings); absent where nothing was given. */
export interface JobServices {
  config: Config;
}

/** Does a claimed job's work (resuming from job.processed_count); throws to fail it. */
export type JobHandler = (ctx: Ctx, job: ClaimedJob, signal?: AbortSignal, services?: JobServices) => Promise<void>;

/** Work every server and worker repeats (each run must be safe to repeat and to run on several processes at once). */
export interface PeriodicTask {
  name: string;
  everyMs: number;
  /** `services`: what the running process offers (its storage settings), as a job handler gets them. */
  run: (db: Executor, now: Date, services?: JobServices) => Promise<Record<string, number> | number | void>;
}

/** A figure operators watch, as a Prometheus gauge: its name (`svc_…`), help text and label names. */
export interface GaugeSpec {
  name: string;
  help: string;
  labelNames?: readonly string[];
}

/** One value of a gauge, by its labels. */
export interface GaugeValue {
  labels?: Record<string, string>;
  value: number;
}

/**
 * What a module shows operators of its own tables (GET /metrics, decision 0059): one read for all its gauges, made
 * at scrape time and bounded (capped counts, indexed aggregates), by gauge name.
 */
export interface Readings {
  gauges: readonly GaugeSpec[];
  read: (db: Db) => Promise<Record<string, readonly GaugeValue[]>>;
}

/** Runs in the transaction that creates a company (default records of a module). */
export type CompanySeeder = (db: Executor, companyId: string) => Promise<void>;

/**
 * Options every module's routes plugin receives: what all modules brought (e.g. the event names for a schema), and
 * the pool, for the few routes that run before any company is known (signing in).
 */
export interface ModuleRouteOptions {
  registry: Registry;
  db: Db;
}

/** What a surface outside /api/v3 receives: it brings its own authentication, so it gets the pieces for one. */
export interface MountOptions {
  config: Config;
  db: Db;
  registry: Registry;
  limits: RateLimits;
  keyCache?: KeyCache<KeyRow>;
}

/** Routes a module serves beside v3, under their own prefix (the operator API, the legacy v1.0 API). */
export interface Mount {
  prefix: string;
  routes: FastifyPluginAsync<MountOptions>;
}

/**
 * A module's public face (its index.ts): everything it brings to the platform. Nothing registers
 * itself on import; `collectModules` reads these declarations.
 */
export interface ServiceModule {
  name: string;
  /**
   * The tables this module owns: only its own code queries them; other modules use what its index.ts exports
   * (test/architecture/table-ownership.test.ts lists the exceptions).
   */
  tables: readonly (keyof DB)[];
  /** The audit trail's entity for this module's writes (a route may name another). */
  entity?: string;
  routes?: FastifyPluginAsync<ModuleRouteOptions>;
  /**
   * Its writes change what a key or session lookup answers (keys, members, sessions, company plan and apps): a
   * successful one evicts the company from this process's auth caches at once.
   */
  changesAuth?: boolean;
  /** What a plain member's personal key sees of its tables, by table (src/platform/visibility.ts). */
  visibility?: Record<string, VisibilityRule>;
  /** Surfaces outside /api/v3, each under its prefix. */
  mounts?: readonly Mount[];
  /** Runs on every web-origin event (docs/decisions/0054), once the registry is collected. */
  onWebOriginEvent?: WebOriginEvents;
  /** Events its writes fire, by entity: what is recorded in the outbox, and what webhooks can subscribe to. */
  events?: Record<string, readonly EventAction[]>;
  /** Example records for GET /webhooks/example, by entity. */
  samples?: Record<string, Record<string, unknown>>;
  /** How an event's stored record is shaped for delivery, by entity (e.g. lean clients). */
  eventShapes?: Record<string, (data: Record<string, unknown>) => Record<string, unknown>>;
  jobs?: Record<string, JobHandler>;
  periodic?: readonly PeriodicTask[];
  seeders?: readonly CompanySeeder[];
  /** Gauges of its backlog for GET /metrics. */
  readings?: Readings;
}

export const defineModule = (module: ServiceModule): ServiceModule => module;

export interface Registry {
  modules: readonly ServiceModule[];
  events: EventCatalogue;
  eventNames: string[];
  samples: Record<string, Record<string, unknown>>;
  eventShapes: Record<string, (data: Record<string, unknown>) => Record<string, unknown>>;
  jobs: Record<string, JobHandler>;
  periodic: PeriodicTask[];
  seeders: CompanySeeder[];
  /** Each table's owner: a module's name, or an owner outside the module list (platform/tables.ts). */
  tableOwners: Record<string, string>;
}

function merge<V>(into: Record<string, V>, from: Record<string, V> | undefined, what: string, module: string): void {
  for (const [key, value] of Object.entries(from ?? {})) {
    if (key in into) throw new Error(`${what} "${key}" is declared twice (again by module ${module})`);
    into[key] = value;
  }
}

function claimTables(registry: Registry, tables: readonly string[], owner: string): void {
  merge(registry.tableOwners, Object.fromEntries(tables.map((table) => [table, owner])), 'table', owner);
}

/** Reads every module's declarations into one registry, refusing a name declared twice. */
export function collectModules(modules: readonly ServiceModule[]): Registry {
  const registry: Registry = {
    modules,
    events: {},
    eventNames: [],
    samples: {},
    eventShapes: {},
    jobs: {},
    periodic: [],
    seeders: [],
    tableOwners: {},
  };
  for (const [owner, tables] of Object.entries(TABLES_OUTSIDE_MODULES)) claimTables(registry, tables, owner);
  for (const module of modules) {
    claimTables(registry, module.tables, module.name);
    merge(registry.events as Record<string, readonly EventAction[]>, module.events, 'event entity', module.name);
    merge(registry.samples, module.samples, 'sample', module.name);
    merge(registry.eventShapes, module.eventShapes, 'event shape', module.name);
    merge(registry.jobs, module.jobs, 'job type', module.name);
    registry.periodic.push(...(module.periodic ?? []));
    registry.seeders.push(...(module.seeders ?? []));
  }
  registry.eventNames = Object.entries(registry.events).flatMap(([entity, actions]) =>
    actions.map((a) => `${entity}.${a}`),
  );
  installEventCatalogue(registry.events);
  const visibility: Record<string, VisibilityRule> = {};
  for (const module of modules) merge(visibility, module.visibility, 'visibility of table', module.name);
  installVisibility(visibility);
  const listeners = modules.flatMap((m) => (m.onWebOriginEvent ? [m.onWebOriginEvent] : []));
  if (listeners.length > 1) throw new Error('only one module may take web-origin events');
  if (listeners[0]) installWebOriginEvents(listeners[0]);
  return registry;
}
