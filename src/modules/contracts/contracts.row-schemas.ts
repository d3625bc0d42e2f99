import { Type, type Static } from 'typebox';
import { Id, Nullable, Timestamp } from '../../platform/fields.ts';

/** A calendar day; years 1900-2999 keep date arithmetic (the day before) inside what PostgreSQL stores. */
export const DateIn = (description: string) =>
  Type.String({ format: 'date', pattern: '^(19|2\\d)\\d\\d-\\d\\d-\\d\\d$', description });

export const ContractRowPrice = Type.Object(
  {
    id: Type.Integer(),
    contract_row_id: Type.Integer(),
    net_price: Type.Number({ description: 'Unit price from active_from on (up to 4 decimals)' }),
    active_from: Type.String({ format: 'date', description: 'First day the price applies; default 2000-01-01' }),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'ContractRowPrice' },
);

export const ContractRow = Type.Object(
  {
    id: Type.Integer(),
    contract_id: Type.Integer(),
    description: Nullable(Type.String()),
    discount_rate: Type.Number({ description: 'Percent off, 0-100 (10 means 10 %)' }),
    product_id: Nullable(Type.Integer()),
    quantity: Type.Number({ description: 'Quantity per invoice period, ≥ 0 (up to 4 decimals)' }),
    unit: Nullable(Type.String()),
    invoice_time_min: Nullable(Type.Integer({ description: 'Minutes of work this row covers per period' })),
    net_price: Nullable(
      Type.Number({ description: "Unit price; null: the row's own prices, else the product's price list" }),
    ),
    tax_id: Nullable(Type.Integer()),
    article_id: Nullable(Type.Integer()),
    resource_id: Nullable(Type.Integer()),
    billing_project_id: Nullable(Type.Integer()),
    ext_variable: Nullable(Type.String()),
    prices: Type.Array(ContractRowPrice, { description: "The row's own price list, by active_from" }),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC); the ETag of row writes'),
  },
  { title: 'ContractRow' },
);
export type ContractRowRecord = Static<typeof ContractRow>;

/**
 * Amounts are plain JSON numbers here; their ranges and decimals are checked by the service (decimalInput), so a
 * create with many rows can name every refused row instead of stopping at the first.
 */
const rowFields = {
  description: Type.Optional(
    Nullable(Type.String({ maxLength: 2000, description: 'Row text; default the product name' })),
  ),
  discount_rate: Type.Optional(Type.Number({ description: 'Percent off, 0-100, up to 4 decimals (default 0)' })),
  product_id: Type.Optional(Nullable(Id('A product of this company'))),
  quantity: Type.Optional(Type.Number({ description: 'Quantity ≥ 0, up to 4 decimals (default 1)' })),
  unit: Type.Optional(Nullable(Type.String({ maxLength: 64, description: 'Unit; default the product unit' }))),
  invoice_time_min: Type.Optional(Nullable(Type.Integer({ description: 'Minutes of work covered, ≥ 0' }))),
  net_price: Type.Optional(Nullable(Type.Number({ description: 'Unit price, up to 4 decimals; null: price lists' }))),
  tax_id: Type.Optional(Nullable(Id('A tax of this company; default the product tax'))),
  article_id: Type.Optional(Nullable(Id('Article id in the accounting system'))),
  resource_id: Type.Optional(Nullable(Id('Resource id in the accounting system'))),
  billing_project_id: Type.Optional(Nullable(Id('Project id in the accounting system'))),
  ext_variable: Type.Optional(Nullable(Type.String({ maxLength: 255, description: 'Free text for integrations' }))),
};

export const RowCreate = Type.Object(rowFields, { additionalProperties: false, title: 'ContractRowCreate' });
export type RowCreateBody = Static<typeof RowCreate>;
export const RowUpdate = Type.Object(rowFields, { additionalProperties: false, title: 'ContractRowUpdate' });
export type RowUpdateBody = Static<typeof RowUpdate>;

export const RowPriceCreate = Type.Object(
  {
    net_price: Type.Number({ description: 'Unit price, up to 4 decimals' }),
    active_from: Type.Optional(DateIn('First day the price applies (default 2000-01-01)')),
  },
  { additionalProperties: false, title: 'ContractRowPriceCreate' },
);
export type RowPriceCreateBody = Static<typeof RowPriceCreate>;
