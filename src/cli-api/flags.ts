// Flags to a request: each query parameter and each top-level body field is a flag (--client-id for client_id),
// --data gives a whole body. Values are read by their schema type and checked with the API's own validator before
// anything is sent, so a wrong type prints the same field-named error the API would, without a request.
import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import { guardSchema } from '../platform/input-guards.ts';
import { describeErrors, makeAjv } from '../platform/validation.ts';
import { CliError, usage } from './errors.ts';
import { bodySchemaOf, type ApiCommand, type JsonSchema } from './openapi.ts';

/** Names every command already uses for itself; a body field of the same name is reached through --data. */
export const RESERVED = new Set(['data', 'all', 'output', 'profile', 'help']);

export interface FlagSpec {
  flag: string;
  field: string;
  where: 'query' | 'body';
  schema: JsonSchema;
}

export const flagOf = (field: string) => field.replace(/_/g, '-');

export function flagsOf(command: ApiCommand): FlagSpec[] {
  const specs: FlagSpec[] = [];
  const props = command.inputSchema.properties as Record<string, JsonSchema>;
  for (const name of command.queryParams)
    specs.push({ flag: flagOf(name), field: name, where: 'query', schema: props[name] ?? {} });
  const taken = new Set(specs.map((s) => s.flag));
  for (const [name, schema] of Object.entries(bodySchemaOf(command)?.properties ?? {})) {
    const flag = flagOf(name);
    if (!taken.has(flag) && !RESERVED.has(flag)) specs.push({ flag, field: name, where: 'body', schema });
  }
  return specs.filter((s) => !RESERVED.has(s.flag));
}

function typesOf(schema: JsonSchema): Set<string> {
  const types = new Set<string>([schema.type ?? []].flat());
  for (const part of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) for (const t of typesOf(part)) types.add(t);
  if (schema.const !== undefined) types.add(typeof schema.const);
  for (const value of schema.enum ?? []) types.add(typeof value);
  return types;
}

/** Text as its schema reads it: strings stay text ("null" is null where null is allowed), the rest is JSON. */
export function coerce(raw: string, schema: JsonSchema): unknown {
  const types = typesOf(schema);
  if (raw === 'null' && types.has('null')) return null;
  if (types.size === 0 || types.has('string')) return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw; // the validator names the field and the type it wanted
  }
}

/** --data '<json>' or --data @file.json: the whole body, which the flags then amend. */
export function readData(data: string | undefined): Record<string, unknown> | undefined {
  if (data === undefined) return undefined;
  let text = data;
  if (data.startsWith('@')) {
    try {
      text = readFileSync(data.slice(1), 'utf8');
    } catch (error) {
      throw usage(`--data ${data}: ${(error as Error).message}`);
    }
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw usage('--data is not valid JSON');
  }
}

export interface RequestParts {
  path: string;
  query: Record<string, unknown>;
  body?: Record<string, unknown>;
}

/** Fills the path, query and body from the positional arguments and flags, then validates them. */
export function requestOf(
  command: ApiCommand,
  positionals: string[],
  options: Record<string, unknown>,
  specs: FlagSpec[],
): RequestParts {
  const props = command.inputSchema.properties as Record<string, JsonSchema>;
  const input: Record<string, unknown> = {};
  command.pathParams.forEach((name, i) => (input[name] = coerce(positionals[i]!, props[name] ?? {})));
  const body = command.hasBody ? (readData(options.data as string | undefined) ?? {}) : undefined;
  for (const spec of specs) {
    const raw = options[spec.flag];
    if (raw === undefined) continue;
    const value = coerce(raw as string, spec.schema);
    if (spec.where === 'body') body![spec.field] = value;
    else input[spec.field] = value;
  }
  if (body !== undefined) input.body = body;
  validate(command, input, specs);
  let path = command.path;
  for (const name of command.pathParams) path = path.replace(`{${name}}`, encodeURIComponent(String(input[name])));
  const query = Object.fromEntries(command.queryParams.filter((q) => q in input).map((q) => [q, input[q]]));
  return { path, query, body };
}

const ajv = makeAjv(false);

function validate(command: ApiCommand, input: Record<string, unknown>, specs: FlagSpec[]): void {
  const check = ajv.compile(guardSchema(command.inputSchema) as object);
  // A copy: the validator fills in defaults, and only what the user gave is sent.
  if (check(structuredClone(input))) return;
  const errors = (check.errors ?? []) as ErrorObject[];
  const problems = describeErrors(errors, 'input').map((p) => ({ ...p, field: p.field.replace(/^body\.?/, '') }));
  const [first] = problems;
  const top = first!.field.split('.')[0]!;
  const spec = specs.find((s) => s.field === top);
  const where = command.pathParams.includes(top) ? `<${top}>` : spec ? `--${spec.flag}` : '--data';
  const label = command.queryParams.includes(top) ? 'Query parameter' : 'Field';
  throw new CliError('VALIDATION_ERROR', `${label} ${first!.field || 'body'} ${first!.message} (${where})`, 2, {
    field: first!.field,
    errors: problems,
  });
}
