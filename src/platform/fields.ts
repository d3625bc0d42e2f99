import { Type, type TLiteral, type TOptional, type TSchema, type TSchemaOptions, type TUnion } from 'typebox';

/** Shared field shapes, so every resource validates and documents them the same way. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** A money field of a record: answered as null to a key without the financials tier (route() `money.read`). */
export const MoneyOut = <T extends TSchema>(schema: T) =>
  Type.Union([schema, Type.Null()], {
    description: `${(schema as { description?: string }).description ?? ''} (null to a key without financials)`.trim(),
  });
export const Name = (description = 'Name, 1-255 characters') =>
  Type.String({ minLength: 1, maxLength: 255, description });
export const Text = (description: string, maxLength = 255) => Nullable(Type.String({ maxLength, description }));
export const Id = (description: string) => Type.Integer({ minimum: 1, maximum: 2147483647, description });
export const Timestamp = (description: string) => Type.String({ format: 'date-time', description });
export const DateOnly = (description: string) => Type.String({ format: 'date', description });
/** Integer flags answer 0/1; on input 0/1 and true/false are both accepted. */
export const FlagOut = (description: string) => Type.Union([Type.Literal(0), Type.Literal(1)], { description });
export const FlagIn = (description: string) =>
  Type.Union([Type.Literal(0), Type.Literal(1), Type.Boolean()], { description });
export const CustomFields = Nullable(
  Type.Record(Type.String(), Type.Unknown(), {
    description:
      'Company-defined fields; on input the alias `fields` is accepted. At most 5 levels deep, 100 entries per ' +
      'object or array and 32 KB of JSON; no string or key may contain U+0000',
  }),
);
export const Color = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: 'Hex colour, e.g. #1a2b3c' });
export const IdList = (description: string) => Type.Array(Id('id'), { uniqueItems: true, maxItems: 500, description });
/**
 * One of the values, as a union of literals (the document's anyOf of consts), typed as the union of the values:
 * `Type.Union(values.map(Type.Literal))` alone is typed over an array, whose Static is `never`, so a record built
 * with it could not be checked against the row its projection selects.
 */
export const Literals = <T extends string>(values: readonly T[], options?: TSchemaOptions) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as TSchema as TUnion<[TLiteral<T>]>;

/** Comma-separated enum list for `status` style filters (validated by the pattern). */
export const EnumList = (values: readonly string[], description: string) =>
  Type.String({
    pattern: `^(${values.join('|')})(,(${values.join('|')}))*$`,
    description: `${description}; comma list of ${values.join(', ')}`,
  });

export const toFlag = (value: number | boolean | undefined): number | undefined =>
  value === undefined ? undefined : value === true || value === 1 ? 1 : 0;

/** Resolves the `fields` input alias of `custom_fields`; sending both is ambiguous and refused by the caller. */
export function customFieldsInput(body: { custom_fields?: unknown; fields?: unknown }): {
  present: boolean;
  value: string | null;
  both: boolean;
} {
  const both = body.custom_fields !== undefined && body.fields !== undefined;
  const value = body.custom_fields !== undefined ? body.custom_fields : body.fields;
  return { present: value !== undefined, value: value == null ? null : JSON.stringify(value), both };
}

export const splitList = (value: string | undefined) => (value ? value.split(',').filter(Boolean) : undefined);

/** Every property optional: the PATCH body of a resource is its create body with nothing required. */
export function mapOptional<T extends Record<string, TSchema>>(props: T): { [K in keyof T]: TOptional<T[K]> } {
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: TOptional<T[K]>;
  };
}
