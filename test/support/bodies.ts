/**
 * Request bodies and queries built from a route's schemas in the OpenAPI document: a minimal body that gets past
 * the required-field checks, and the places in a body that name another record (client_id, filter.ids,
 * entries[].task_id, related_id with its related_type), so a walk can aim each of them at a record of its choice.
 */
export type Schema = Record<string, any>;
export type Path = Array<string | number>;

/** Fills ids and persons: `ids` gives the record for an id field by its name, `person` any person field. */
export interface Samples {
  ids: Record<string, number | string>;
  person: number;
}

/** A nullable schema's non-null branch (TypeBox writes Nullable(X) as anyOf [X, null]). */
export const unwrap = (schema: Schema | undefined): Schema | undefined =>
  schema?.anyOf ? (schema.anyOf.find((s: Schema) => s.type !== 'null') ?? schema.anyOf[0]) : schema;

/** The literal values a schema allows: an enum, a constant, or a union of them (nullable or not). */
export const literals = (schema: Schema | undefined): unknown[] =>
  schema?.enum ??
  (schema?.const !== undefined ? [schema.const] : (schema?.anyOf ?? []).flatMap((s: Schema) => literals(s)));

/** A value the schema accepts, as far as a guess can tell (formats and a few known patterns). */
export function sample(schema: Schema | undefined, name: string, samples: Samples): unknown {
  if (!schema) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(unwrap(schema), name, samples);
  if (schema.type === 'integer' || schema.type === 'number') {
    if (/person_id$|^manager_id$/.test(name)) return samples.person;
    return typeof samples.ids[name] === 'number' ? samples.ids[name] : (schema.minimum ?? 1);
  }
  if (schema.type === 'boolean') return true;
  if (schema.type === 'array') return schema.minItems ? [sample(schema.items, name, samples)] : [];
  if (schema.type === 'object') return minimalBody(schema, samples);
  if (schema.format === 'date-time' || String(schema.pattern ?? '').includes('T\\d{2}')) return '2026-07-01T09:00:00Z';
  if (schema.format === 'date') return '2026-07-01';
  if (schema.format === 'email') return 'walk@example.com';
  if (schema.format?.startsWith('uri') || name === 'url') return 'https://127.0.0.1/hook';
  if (String(schema.pattern ?? '').startsWith('^#')) return '#1a2b3c';
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
}

export const minimalBody = (schema: Schema, samples: Samples): Record<string, unknown> =>
  Object.fromEntries((schema.required ?? []).map((p: string) => [p, sample(schema.properties?.[p], p, samples)]));

/** A place in a body that names a record: where it is, what kind (by `kindOf`), a list or one id, what goes with it. */
export interface Reference {
  path: Path;
  kind: string;
  many: boolean;
  /** Sibling values the reference needs (the related_type of a related_id). */
  with: Record<string, unknown>;
}

/**
 * Every place in a body schema that names a record, found by field name: `kindOf(field)` says which kind of
 * record it names (or undefined); a related_id names each kind its related_type allows.
 */
export function references(schema: Schema | undefined, kindOf: (field: string) => string | undefined): Reference[] {
  const out: Reference[] = [];
  const walk = (node: Schema | undefined, path: Path) => {
    const properties: Record<string, Schema> = unwrap(node)?.properties ?? {};
    for (const [field, raw] of Object.entries(properties)) {
      const prop = unwrap(raw)!;
      const at = [...path, field];
      if (field === 'related_id') {
        for (const type of literals(properties.related_type))
          out.push({ path: at, kind: `${String(type)}_id`, many: false, with: { related_type: type } });
        continue;
      }
      const kind = kindOf(field);
      if (kind) out.push({ path: at, kind, many: prop.type === 'array', with: {} });
      else if (prop.type === 'object') walk(prop, at);
      else if (prop.type === 'array' && unwrap(prop.items)?.type === 'object') walk(prop.items, [...at, 0]);
    }
  };
  walk(schema, []);
  return out;
}

/** A copy of `body` with `value` at `path` (and `siblings` beside it), making the containers on the way. */
export function withValue(
  body: Record<string, unknown>,
  schema: Schema,
  path: Path,
  value: unknown,
  siblings: Record<string, unknown>,
  samples: Samples,
): Record<string, unknown> {
  const copy = structuredClone(body);
  let node: any = copy;
  let nodeSchema: Schema | undefined = unwrap(schema);
  for (const step of path.slice(0, -1)) {
    const next = typeof step === 'number' ? unwrap(nodeSchema?.items) : unwrap(nodeSchema?.properties?.[step]);
    if (node[step] === undefined || (Array.isArray(node[step]) && node[step].length === 0))
      node[step] = next?.type === 'array' ? [] : next?.type === 'object' ? minimalBody(next, samples) : {};
    if (Array.isArray(node[step]) && node[step].length === 0)
      node[step].push(minimalBody(unwrap(next?.items) ?? {}, samples));
    node = node[step];
    nodeSchema = next;
  }
  Object.assign(node, siblings, { [path.at(-1)!]: value });
  return copy;
}
