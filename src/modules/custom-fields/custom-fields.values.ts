import { sql, type RawBuilder } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import type { FieldProblem } from '../../platform/validation.ts';
import { definitionsFor } from './custom-fields.repository.ts';
import type { EntityType, FieldType } from './custom-fields.schemas.ts';

interface Definition {
  field_type: FieldType;
  status: string;
  options: string[];
}

const isDate = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
};

/** Why a value does not fit its definition, or undefined when it does. null always fits: it clears the value. */
function problemWith(definition: Definition, value: unknown): string | undefined {
  if (value === null) return undefined;
  const { field_type: type, options } = definition;
  switch (type) {
    case 'text':
      // Length is bounded by the free-form guards (32 KB for the whole object).
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a finite number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'date':
      return typeof value === 'string' && isDate(value) ? undefined : 'must be a date (YYYY-MM-DD)';
    case 'select':
      return typeof value === 'string' && options.includes(value) ? undefined : `must be one of: ${options.join(', ')}`;
    case 'multiselect':
      return Array.isArray(value) &&
        new Set(value).size === value.length &&
        value.every((v) => typeof v === 'string' && options.includes(v))
        ? undefined
        : `must be a list of distinct options among: ${options.join(', ')}`;
    case 'json':
      // Structured data the company defines itself; depth, size and U+0000 are bounded by the input guards.
      return undefined;
  }
}

/**
 * The one check of a record's custom fields (clients, contacts, tasks, projects, members): every key must be an
 * active definition of the company for that entity type, and its value must fit the field's type and options.
 * Unknown or inactive keys are refused (a company without definitions accepts only an empty object or null).
 * Answers 400 VALIDATION_ERROR with one entry per bad key in details.errors, like schema validation does.
 */
export async function assertCustomFieldValues(
  ctx: Ctx,
  entity: EntityType,
  body: { custom_fields?: unknown; fields?: unknown },
): Promise<void> {
  const input = body.custom_fields !== undefined ? 'custom_fields' : 'fields';
  const value = body[input];
  if (value === undefined || value === null || typeof value !== 'object') return;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return;
  const definitions = await definitionsFor(ctx, entity);
  const problems: FieldProblem[] = [];
  for (const [key, item] of entries) {
    const definition = definitions.get(key);
    const message = !definition
      ? `is not a custom field of this company for ${entity} records`
      : definition.status !== 'active' && item !== null
        ? 'is an inactive custom field (only null is accepted)'
        : problemWith(definition, item);
    if (message) problems.push({ field: `${input}.${key}`, message });
  }
  if (problems.length > 0)
    throw new AppError('VALIDATION_ERROR', `${problems[0]!.field} ${problems[0]!.message}`, { errors: problems });
}

/** The list filter syntax: `custom_fields[<name>]=<value>`, one or more per request (all must match). */
export const CUSTOM_FIELD_FILTER_PATTERN = '^custom_fields\\[[^\\[\\]\\x00-\\x1f]{1,100}\\]$';
const FILTER_KEY = /^custom_fields\[(.+)\]$/;

/** The querystring properties a list adds to accept the filter (merged into its listQuery schema). */
export const customFieldFilterSchema = {
  patternProperties: {
    [CUSTOM_FIELD_FILTER_PATTERN]: { type: 'string', maxLength: 255, description: 'custom_fields[<name>]=<value>' },
  },
};

/**
 * The SQL conditions of the custom_fields[...] filters among a list's filters, on `<alias>.custom_fields`.
 * A value matches a stored string, number or boolean by its text (`->>`), or an element of a multiselect list.
 */
export function customFieldConditions(filters: Record<string, unknown>, alias: string): RawBuilder<boolean>[] {
  const column = sql.ref(`${alias}.custom_fields`);
  const conditions: RawBuilder<boolean>[] = [];
  for (const [key, value] of Object.entries(filters)) {
    const name = FILTER_KEY.exec(key)?.[1];
    if (name === undefined || typeof value !== 'string') continue;
    conditions.push(sql<boolean>`((${column} ->> ${name}) = ${value}
      or (jsonb_typeof(${column} -> ${name}) = 'array' and (${column} -> ${name}) ? ${value}))`);
  }
  return conditions;
}
