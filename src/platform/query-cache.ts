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
 * - The arguments must reach Kysely as values and never be inspected. The first call of each shape builds
 *   the query a second time with the real values and compares: a builder that branched on an argument
 *   (or on anything not in the key) gives other SQL or parameters, and the shape stays uncached.
 */

class Slot {
  readonly key: number | 'company' | 'person';
  constructor(key: number | 'company' | 'person') {
    this.key = key;
  }
}

interface Template {
  compiled: CompiledQuery;
  /** Parameter positions taking a per-call value, and which one. */
  slots: Array<[position: number, key: Slot['key']]>;
}

class UncachedRead extends Error {}

const COMPANY = new Slot('company');
const PERSON = new Slot('person');

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

function fill(template: Template, ctx: Ctx, args: readonly unknown[]): CompiledQuery {
  const parameters = [...template.compiled.parameters];
  for (const [position, key] of template.slots)
    parameters[position] = key === 'company' ? ctx.companyId : key === 'person' ? ctx.actor.personId : args[key];
  return { ...template.compiled, parameters };
}

const sameQuery = (a: CompiledQuery, b: CompiledQuery) =>
  a.sql === b.sql &&
  a.parameters.length === b.parameters.length &&
  a.parameters.every((value, i) => JSON.stringify(value) === JSON.stringify(b.parameters[i]));

export interface CachedQuery<A extends unknown[], R> {
  (ctx: Ctx, ...args: A): Promise<R[]>;
  /** Whether the shape for this ctx is cached (tests hold the hot shapes to it). */
  cachedFor(ctx: Ctx): boolean;
}

/** A query whose shape is built and compiled once; each call fills in its arguments, company and person. */
export function cachedQuery<A extends unknown[], R>(
  build: (ctx: Ctx, ...args: A) => Compilable<R>,
): CachedQuery<A, R> {
  const shapes = new Map<string, Template | null>();
  const keyOf = (ctx: Ctx) => (ctx.actor.restricted ? 'restricted' : 'all');

  function learn(ctx: Ctx, args: A, real: CompiledQuery): Template | null {
    let compiled: CompiledQuery;
    try {
      const slotted = args.map((_, i) => new Slot(i)) as unknown as A;
      compiled = build(buildCtx(ctx), ...slotted).compile();
    } catch (error) {
      if (error instanceof UncachedRead) return null;
      throw error;
    }
    const slots: Template['slots'] = [];
    compiled.parameters.forEach((value, position) => {
      if (value instanceof Slot) slots.push([position, value.key]);
    });
    const template = { compiled, slots };
    return sameQuery(fill(template, ctx, args), real) ? template : null;
  }

  const run = async (ctx: Ctx, ...args: A): Promise<R[]> => {
    const key = keyOf(ctx);
    const template = shapes.get(key);
    if (template) return (await ctx.db.executeQuery<R>(fill(template, ctx, args))).rows;
    const real = build(ctx, ...args).compile();
    if (template === undefined) shapes.set(key, learn(ctx, args, real));
    return (await ctx.db.executeQuery<R>(real)).rows;
  };
  return Object.assign(run, { cachedFor: (ctx: Ctx) => Boolean(shapes.get(keyOf(ctx))) });
}
