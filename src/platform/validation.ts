import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import fastJson from 'fast-json-stringify';
import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';
import { addGuardKeywords, CHECKED_BY_SERVICE, guardSchema } from './input-guards.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export function makeAjv(coerce: boolean): Ajv {
  // removeAdditional off: an unknown field or filter is an error the caller sees, never silently dropped.
  const ajv = new Ajv({
    allErrors: false,
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: coerce ? 'array' : false,
    strict: false,
  });
  addFormats(ajv);
  addGuardKeywords(ajv);
  return ajv;
}

/**
 * Query strings, params and headers arrive as text and are coerced to their schema types;
 * JSON bodies are not: "1" is not an integer and "true" is not a boolean. Every schema is compiled
 * with the input guards (input-guards.ts): no U+0000 in any string, bounded free-form values.
 */
export function registerValidators(app: FastifyInstance): void {
  const coercing = makeAjv(true);
  const strict = makeAjv(false);
  for (const [id, schema] of Object.entries(app.getSchemas())) {
    coercing.addSchema(guardSchema(schema) as object, id);
    strict.addSchema(guardSchema(schema) as object, id);
  }
  const pending = pendingCompilers(app);
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    const compiled = onFirstUse(pending, () => ajv.compile(guardSchema(schema) as object));
    const validate = (data: unknown) => {
      const fn = compiled();
      const valid = fn(data);
      validate.errors = fn.errors;
      return valid;
    };
    validate.errors = undefined as ValidateFunction['errors'];
    return validate;
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles every validator and serializer not yet used; answers how many it compiled (tests, warm-up). */
    compileSchemas(): number;
  }
}

/**
 * Validators and serializers are compiled on a route's first use, not at start: compiling all of them
 * (281 operations) left the idle process at 202 MB RSS against 141 MB, and a server uses a fraction of its
 * routes. `app.compileSchemas()` compiles the rest, so a test still proves that every schema compiles.
 */
const pendingByApp = new WeakMap<FastifyInstance, Set<() => unknown>>();

function pendingCompilers(app: FastifyInstance): Set<() => unknown> {
  const known = pendingByApp.get(app);
  if (known) return known;
  const pending = new Set<() => unknown>();
  app.decorate('compileSchemas', () => {
    const count = pending.size;
    for (const compile of pending) compile();
    return count;
  });
  pendingByApp.set(app, pending);
  return pending;
}

/** `compile` runs once, on the first call or on `compileSchemas()`, whichever comes first. */
function onFirstUse<F>(pending: Set<() => unknown>, compile: () => F): () => F {
  let compiled: F | undefined;
  const once = () => {
    pending.delete(once);
    return (compiled ??= compile());
  };
  pending.add(once);
  return () => compiled ?? once();
}

type Schema = Record<string, unknown>;
const isNull = (s: unknown) => (s as Schema | undefined)?.type === 'null' && Object.keys(s as Schema).length === 1;

/**
 * The schema as the serializer needs it. `Nullable(X)` is `anyOf: [X, null]`, which fast-json-stringify
 * serializes by running Ajv on every value to pick the branch (a date-time format check per field per row:
 * measured 2% of the task list's CPU). A typed X becomes `X` with `nullable: true`: the same output, one
 * `=== null` test. Validation keeps the original schemas.
 */
export function forSerialization(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forSerialization);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) out[key] = forSerialization(value);
  const branches = out.anyOf as unknown[] | undefined;
  if (!Array.isArray(branches) || branches.length !== 2) return out;
  const value = branches.find((b) => !isNull(b)) as Schema | undefined;
  if (!value || !branches.some(isNull) || typeof value.type !== 'string' || value.anyOf || value.oneOf) return out;
  const { anyOf: _, ...rest } = out;
  return { ...rest, ...value, nullable: true };
}

/**
 * Response serializers are compiled once per distinct schema, not once per route and status: the error
 * body and the shared record shapes repeat across every route, and each compiled copy costs memory.
 */
export function registerSerializerCache(app: FastifyInstance): void {
  const cache = new Map<string, (data: unknown) => string>();
  const pending = pendingCompilers(app);
  const shared = Object.fromEntries(
    Object.values(app.getSchemas()).map((s) => [(s as { $id: string }).$id, forSerialization(s)]),
  );
  app.setSerializerCompiler(({ schema }) => {
    const key = JSON.stringify(schema);
    let serializer = cache.get(key);
    if (!serializer) {
      const compiled = onFirstUse(
        pending,
        () =>
          fastJson(forSerialization(schema) as fastJson.AnySchema, {
            schema: shared as Record<string, fastJson.Schema>,
          }) as (data: unknown) => string,
      );
      serializer = (data: unknown) => compiled()(data);
      cache.set(key, serializer);
    }
    return serializer;
  });
}

export interface FieldProblem {
  field: string;
  message: string;
}

export function describeErrors(errors: ErrorObject[], part: string): FieldProblem[] {
  return errors.map((error) => {
    const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const params = error.params as { additionalProperty?: string; missingProperty?: string };
    const extra =
      error.keyword === 'additionalProperties'
        ? (params.additionalProperty ?? '')
        : error.keyword === 'required'
          ? (params.missingProperty ?? '')
          : '';
    const field = [base, extra].filter(Boolean).join('.') || part;
    const message =
      error.keyword === 'additionalProperties'
        ? 'is not a known field'
        : error.keyword === 'required'
          ? 'is required'
          : (error.message ?? 'is invalid');
    return { field, message };
  });
}

/**
 * A request subschema the service checks itself, one item at a time, so a refusal can name the item (contract
 * rows: 422 CONTRACT_ROWS_REJECTED by row_index, not one 400 for the body). The route's validator lets any JSON
 * within the free-form bounds through at that place (its code type is unknown); the document still shows the schema.
 */
export function checkedByService<T extends TSchema>(schema: T): TUnsafe<unknown> {
  return Type.Unsafe<unknown>({ ...schema, [CHECKED_BY_SERVICE]: true });
}

let serviceAjv: Ajv | undefined;

export type Checked<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

/**
 * The check of `schema` a route's body validator would run (no coercion, the input guards), for values a service
 * validates itself (`checkedByService`). Compiled on first use; the first problem only, as a route's.
 */
export function checkerOf<T extends TSchema>(schema: T): (value: unknown) => Checked<Static<T>> {
  let compiled: ValidateFunction | undefined;
  return (value) => {
    compiled ??= (serviceAjv ??= makeAjv(false)).compile(guardSchema(schema) as object);
    if (compiled(value)) return { ok: true, value: value as Static<T> };
    return { ok: false, problems: describeErrors(compiled.errors ?? [], '') };
  };
}
