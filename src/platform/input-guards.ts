import { _, type Ajv, type KeywordCxt, type SchemaValidateFunction } from 'ajv';

/**
 * Guards every request schema gets at compile time (registerValidators), so no route can forget them:
 * - no string anywhere holds U+0000, which PostgreSQL text and jsonb cannot store;
 * - every free-form JSON value (custom_fields and any other schema that accepts anything) is bounded
 *   in depth, entries and size, so one stored value cannot grow every read of its record without limit.
 */
export const NUL_KEYWORD = 'x-no-nul';
/**
 * Marks a request subschema the service validates itself, item by item (validation.ts `checkedByService`): the
 * route's validator lets any bounded JSON through at that place, and the service runs the schema with these guards.
 */
export const CHECKED_BY_SERVICE = 'x-checked-by-service';
const FREE_FORM_KEYWORD = 'x-free-form-bounds';
const NUL_MESSAGE = 'must not contain the character U+0000';

/** Bounds of a free-form value: nesting levels, entries per object or array, bytes of its JSON. */
export const FREE_FORM_LIMITS = { depth: 5, entries: 100, bytes: 32 * 1024 } as const;

interface Problem {
  path: string;
  message: string;
}

const pointer = (key: string) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** Depth-first, stopping at the first problem and never going deeper than the bound (no deep recursion). */
function freeFormProblem(value: unknown, root: string, path: string, depth: number, nul = true): Problem | undefined {
  if (typeof value === 'string') return nul && value.includes('\u0000') ? { path, message: NUL_MESSAGE } : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (depth > FREE_FORM_LIMITS.depth)
    return { path: root, message: `must not nest deeper than ${FREE_FORM_LIMITS.depth} levels` };
  const keys = Array.isArray(value) ? null : Object.keys(value);
  const size = keys ? keys.length : (value as unknown[]).length;
  if (size > FREE_FORM_LIMITS.entries)
    return { path, message: `must have at most ${FREE_FORM_LIMITS.entries} entries (keys or items)` };
  for (let i = 0; i < size; i++) {
    const key = keys ? keys[i]! : String(i);
    if (nul && key.includes('\u0000')) return { path, message: `keys ${NUL_MESSAGE}` };
    const item = (value as Record<string, unknown>)[key];
    const problem = freeFormProblem(item, root, path + pointer(key), depth + 1, nul);
    if (problem) return problem;
  }
  return undefined;
}

// The keyword's value 'bounds': only depth, entries and size (the service checks the text itself).
const checkFreeForm: SchemaValidateFunction = (schema, data, _parent, cxt) => {
  const root = cxt?.instancePath ?? '';
  let problem = freeFormProblem(data, root, root, 1, schema !== 'bounds');
  // Only measured once the walk has bounded the value: stringifying an unbounded one is the risk itself.
  if (!problem && data !== undefined) {
    const bytes = Buffer.byteLength(JSON.stringify(data));
    if (bytes > FREE_FORM_LIMITS.bytes)
      problem = { path: root, message: `must be at most ${FREE_FORM_LIMITS.bytes} bytes of JSON (got ${bytes})` };
  }
  if (!problem) return true;
  checkFreeForm.errors = [{ keyword: FREE_FORM_KEYWORD, instancePath: problem.path, message: problem.message }];
  return false;
};

export function addGuardKeywords(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: NUL_KEYWORD,
    type: 'string',
    schemaType: 'boolean',
    // Inlined into the compiled validator: one includes() per string the request carries, no extra hook.
    code: (cxt: KeywordCxt) => cxt.fail(_`${cxt.data}.includes(${'\u0000'})`),
    error: { message: NUL_MESSAGE },
  });
  ajv.addKeyword({
    keyword: FREE_FORM_KEYWORD,
    schemaType: ['boolean', 'string'],
    errors: true,
    validate: checkFreeForm,
  });
}

type Schema = Record<string, unknown>;
const SCHEMA_KEYS = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
]);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['anyOf', 'allOf', 'oneOf', 'prefixItems']);
const CONSTRAINTS = ['type', '$ref', 'anyOf', 'allOf', 'oneOf', 'not', 'enum', 'const', 'properties', 'items'];

const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A schema that accepts any JSON (Type.Unknown), or an object whose values all do (Type.Record(String, Unknown)). */
function isFreeForm(schema: Schema): boolean {
  if (CONSTRAINTS.every((key) => schema[key] === undefined)) return true;
  if (schema.type !== 'object' || schema.properties !== undefined) return false;
  const values = [...Object.values((schema.patternProperties as Schema | undefined) ?? {})];
  const extra = schema.additionalProperties;
  if (extra === true || isSchema(extra)) values.push(extra);
  return values.length > 0 && values.every((value) => value === true || (isSchema(value) && isFreeForm(value)));
}

const guarded = new WeakMap<object, unknown>();

function guardEntry(key: string, value: unknown): unknown {
  if (SCHEMA_KEYS.has(key)) return Array.isArray(value) ? value.map(guardSchema) : guardSchema(value);
  if (SCHEMA_LISTS.has(key) && Array.isArray(value)) return value.map(guardSchema);
  if (SCHEMA_MAPS.has(key) && isSchema(value))
    return Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, guardSchema(sub)]));
  return value;
}

/**
 * A copy of a request schema with the guards added. Memoised per schema object, so a body schema shared by
 * several routes stays one object and Ajv compiles it once.
 */
export function guardSchema(schema: unknown): unknown {
  if (!isSchema(schema)) return schema;
  const known = guarded.get(schema);
  if (known) return known;
  let copy: Schema;
  // Still bounded as free-form JSON: what passes reaches the preHandlers (the idempotency hash walks it).
  if (schema[CHECKED_BY_SERVICE] === true) copy = { [FREE_FORM_KEYWORD]: 'bounds' };
  else if (isFreeForm(schema)) copy = { ...schema, [FREE_FORM_KEYWORD]: true };
  else {
    copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, guardEntry(key, value)]));
    const type = schema.type;
    if (type === 'string' || (Array.isArray(type) && type.includes('string'))) copy[NUL_KEYWORD] = true;
  }
  guarded.set(schema, copy);
  return copy;
}
