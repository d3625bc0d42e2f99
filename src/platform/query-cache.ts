import type { CompiledQuery, Compilable } from 'kysely';
import type { Ctx } from './context.ts';

/*
 * Kysely builds and compiles a query anew on every call. For the shapes every request runs that was the
 * largest cost of our own: GET /clients/{id} spent 0.40 ms of service CPU per request, 0.24 ms once its
 * query was compiled once (docs/decisions/0044). A cached query is built once per shape with slots for
 * its per-call values (the arguments, the company, the acting person), compiled, and from then on only
 * its parameters are filled in; the SQL text is the same string every time, so naming the prepared
 * statement is a hash lookup of a string whose hash V8 already knows.
 *
 * What keeps it correct:
 * - The shape key is what, besides the slots, the builder may read: whether the actor is restricted.
 *   While building, the ctx answers only db, companyId, actor.restricted and actor.personId; reading
 *   anything else (the company's timezone, the key) makes that shape uncached, built per call as before.
 * - The arguments must reach Kysely as values and never be inspected. When a shape is learned (the second
 *   time its key is seen), the query built with the real values is compared with the filled template: a
 *   builder that branched on an argument (or on anything not in the key) gives other SQL or parameters, and
 *   the shape stays uncached. Turning a slot into text or a number throws, and ends the attempt too.
 */

type SlotKey = string;

class UncachedRead extends Error {}

class Slot {
  readonly key: SlotKey;
  constructor(key: SlotKey) {
    this.key = key;
  }

  /** A builder that turns a value into text or a number is inspecting it: that shape is not cached. */
  [Symbol.toPrimitive](): never {
    throw new UncachedRead(`the value of ${this.key}`);
  }
}

interface Template {
  compiled: CompiledQuery;
  /** Parameter positions taking a per-call value, and which one. */
  slots: Array<[position: number, key: SlotKey]>;
}

const COMPANY = new Slot('~company');
const PERSON = new Slot('~person');

/** The ctx a shape is built with: its values are slots, and reading anything else ends the attempt. */
function buildCtx(ctx: Ctx): Ctx {
  const actor = new Proxy(ctx.actor, {
    get(target, prop) {
      if (prop === 'restricted') return target.restricted;
      if (prop === 'personId') return PERSON;
      throw new UncachedRead(`actor.${String(prop)}`);
    },
  });
  return new Proxy(ctx, {
    get(target, prop) {
      if (prop === 'db') return target.db;
      if (prop === 'companyId') return COMPANY;
      if (prop === 'actor') return actor;
      throw new UncachedRead(String(prop));
    },
  });
}

type Values = Record<SlotKey, unknown>;

function fill(template: Template, ctx: Ctx, values: Values): CompiledQuery {
  const parameters = [...template.compiled.parameters];
  for (const [position, key] of template.slots)
    parameters[position] = key === COMPANY.key ? ctx.companyId : key === PERSON.key ? ctx.actor.personId : values[key];
  return { ...template.compiled, parameters };
}

const sameQuery = (a: CompiledQuery, b: CompiledQuery) =>
  a.sql === b.sql &&
  a.parameters.length === b.parameters.length &&
  a.parameters.every((value, i) => JSON.stringify(value) === JSON.stringify(b.parameters[i]));

/**
 * The template of one shape; null when it cannot be cached (the builder read something besides its slots, or
 * branched on a value, so the filled template differs from the real query); undefined when the company's or
 * the person's id appears as a constant. That is a builder closed over the caller's ctx, or a constant that
 * happens to equal the person's id, so it is tried again with the next caller.
 */
function learn<V extends Values>(
  ctx: Ctx,
  values: V,
  build: (ctx: Ctx, values: V) => Compilable<unknown>,
  real: CompiledQuery,
): Template | null | undefined {
  let compiled: CompiledQuery;
  try {
    const slotted = Object.fromEntries(Object.keys(values).map((key) => [key, new Slot(key)])) as unknown as V;
    compiled = build(buildCtx(ctx), slotted).compile();
  } catch {
    // An UncachedRead, or a builder tripping over a slot where it expected a value: the real query, built
    // and checked already, answers this call, and this shape stays uncached.
    return null;
  }
  const slots: Template['slots'] = [];
  for (const [position, value] of compiled.parameters.entries()) {
    if (value instanceof Slot) slots.push([position, value.key]);
    else if (value === ctx.companyId || (ctx.actor.personId !== null && value === ctx.actor.personId)) return undefined;
  }
  const template = { compiled, slots };
  return sameQuery(fill(template, ctx, values), real) ? withConstantsWritten(template) : null;
}

/**
 * A builder's own constant as an SQL literal, or undefined to keep it a parameter. Written quoted, so PostgreSQL
 * types it exactly as it types an untyped parameter (pg sends every parameter as text of unknown type); only
 * integers, booleans and short plain words, so nothing in it needs escaping.
 */
function literal(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? `'${value}'` : undefined;
  if (typeof value === 'boolean') return `'${value}'`;
  if (typeof value === 'string') return /^[\w .:-]{0,64}$/.test(value) ? `'${value}'` : undefined;
  return undefined;
}

/**
 * The template with the builder's constants (a list's `type <> 'plan'`, an inline cap, a LIMIT) written into the
 * SQL text and only the per-call values left as parameters (docs/decisions/0068). A prepared statement runs on a
 * generic plan after five executions when that plan looks no dearer than the custom ones, and a generic plan knows
 * no parameter's value: it cannot use a partial index whose predicate names a constant sent as a parameter, and it
 * prices an unknown LIMIT as a tenth of the rows. That made GET /clients sort a company's 10,000 clients for
 * every page. Each `$n` outside quoted text, identifiers and comments is either written out or renumbered.
 */
function withConstantsWritten(template: Template): Template {
  const { sql, parameters } = template.compiled;
  const isSlot = new Set(template.slots.map(([position]) => position));
  const renumbered = new Map<number, number>();
  const kept: unknown[] = [];
  const written = parameters.map((value, i) => (isSlot.has(i) ? undefined : literal(value)));
  parameters.forEach((value, i) => {
    if (written[i] === undefined) renumbered.set(i, kept.push(value));
  });
  if (kept.length === parameters.length) return template;
  const text = rewriteParameters(sql, (i) => written[i] ?? `$${renumbered.get(i)}`);
  const slots = template.slots.map(([position, key]): [number, SlotKey] => [renumbered.get(position)! - 1, key]);
  return { compiled: { ...template.compiled, sql: text, parameters: kept }, slots };
}

/** The SQL with each parameter `$n` (outside quoted text, quoted identifiers and comments) replaced by to(n - 1). */
function rewriteParameters(text: string, to: (index: number) => string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    let end = i + 1;
    if (ch === "'" || ch === '"') {
      end = text.indexOf(ch, i + 1);
      while (end !== -1 && text[end + 1] === ch) end = text.indexOf(ch, end + 2);
      end = end === -1 ? text.length : end + 1;
    } else if (ch === '-' && text[i + 1] === '-') {
      end = text.indexOf('\n', i);
      if (end === -1) end = text.length;
    } else if (ch === '/' && text[i + 1] === '*') {
      end = text.indexOf('*/', i + 2);
      end = end === -1 ? text.length : end + 2;
    } else if (ch === '$' && /[0-9]/.test(text[i + 1] ?? '') && !/[\w$]/.test(text[i - 1] ?? '')) {
      const digits = /^[0-9]+/.exec(text.slice(i + 1))![0];
      out += to(Number(digits) - 1);
      i += 1 + digits.length;
      continue;
    }
    out += text.slice(i, end);
    i = end;
  }
  return out;
}

/**
 * Shapes by key, each built once; a bounded number of keys is kept (a list's filter combinations). A shape
 * is learned the second time its key is seen, so a one-off key (a text search) costs no second build.
 */
export class ShapeCache {
  private readonly shapes = new Map<string, Template | null>();
  private readonly seen = new Set<string>();
  private readonly max: number;

  constructor(max = 500) {
    this.max = max;
  }

  /**
   * Runs the query of shape `key` with these values. The key must name everything besides the values, the
   * company and the person that the builder reads; the actor's restriction is added to it here.
   */
  async run<V extends Values, R>(
    ctx: Ctx,
    key: string,
    values: V,
    build: (ctx: Ctx, values: V) => Compilable<R>,
  ): Promise<R[]> {
    const shape = `${ctx.actor.restricted ? 'r' : 'a'}|${key}`;
    const template = this.shapes.get(shape);
    if (template) return (await ctx.db.executeQuery<R>(fill(template, ctx, values))).rows;
    const real = build(ctx, values).compile();
    if (template === undefined) this.consider(shape, () => learn(ctx, values, build, real));
    return (await ctx.db.executeQuery<R>(real)).rows;
  }

  private consider(shape: string, learnIt: () => Template | null | undefined): void {
    if (!this.seen.has(shape)) {
      if (this.seen.size >= this.max) this.seen.clear();
      this.seen.add(shape);
      return;
    }
    const learned = learnIt();
    if (learned === undefined) return;
    if (this.shapes.size >= this.max) this.shapes.clear();
    this.shapes.set(shape, learned);
  }

  /** How many shapes are cached (not counting those that could not be). */
  get size(): number {
    let n = 0;
    for (const template of this.shapes.values()) if (template) n++;
    return n;
  }

  /** The SQL text of the cached shapes (tests pin what the planner is given). */
  statements(): string[] {
    return [...this.shapes.values()].flatMap((template) => (template ? [template.compiled.sql] : []));
  }

  cached(ctx: Ctx, key: string): boolean {
    return Boolean(this.shapes.get(`${ctx.actor.restricted ? 'r' : 'a'}|${key}`));
  }
}

export interface CachedQuery<A extends unknown[], R> {
  (ctx: Ctx, ...args: A): Promise<R[]>;
  /** Whether the shape for this ctx is cached (tests hold the hot shapes to it). */
  cachedFor(ctx: Ctx): boolean;
}

/** A query whose shape is built and compiled once; each call fills in its arguments, company and person. */
export function cachedQuery<A extends unknown[], R>(build: (ctx: Ctx, ...args: A) => Compilable<R>): CachedQuery<A, R> {
  const cache = new ShapeCache();
  const byValues = (ctx: Ctx, values: Values) => build(ctx, ...(Object.values(values) as A));
  const run = (ctx: Ctx, ...args: A) => cache.run(ctx, '', { ...args } as Values, byValues) as Promise<R[]>;
  return Object.assign(run, { cachedFor: (ctx: Ctx) => cache.cached(ctx, '') });
}
