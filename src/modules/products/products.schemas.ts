import { Type, type Static } from 'typebox';
import { DateOnly, EnumList, Id, IdList, mapOptional, Name, Nullable, Text, Timestamp } from '../../platform/fields.ts';
import { listQuery } from '../../platform/lists.ts';
import { Currency, LocaleCode } from '../billing-settings/index.ts';

export const PRODUCT_STATUSES = ['active', 'inactive'] as const;
/** See docs/decisions/0018: what the product is, which decides the keys type_args may carry. */
export const PRODUCT_TYPES = ['service', 'time', 'goods', 'subscription'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];
export const PRICELIST_TYPES = ['general', 'contract'] as const;
export const BILL_BY = ['unit', 'hour', 'period'] as const;
export const BILLABLE_FILTERS = ['all', 'billable', 'non_billable'] as const;
export const TYPE_ARG_KEYS: Record<ProductType, readonly string[]> = {
  service: [],
  time: ['rounding_min', 'minimum_min'],
  goods: ['sku'],
  subscription: ['period'],
};

/** Read as null (prices as []) for keys without the financials tier. */
export const MONEY_FIELDS = [
  'unit',
  'pricelist_type',
  'bill_by',
  'billable_filter',
  'tax_id',
  'tax_rate',
  'tax_name',
  'article_id',
  'resource_id',
  'billing_project_id',
  'prices',
] as const;
/** The writable ones among them: writing any needs the financials tier. */
export const MONEY_WRITABLE = MONEY_FIELDS.filter((f) => f !== 'tax_rate' && f !== 'tax_name' && f !== 'prices');

const oneOf = <T extends readonly string[]>(values: T, description: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  );

const TypeArgs = Type.Object(
  {
    rounding_min: Type.Optional(Type.Integer({ minimum: 1, maximum: 480, description: 'time: round each entry up' })),
    minimum_min: Type.Optional(Type.Integer({ minimum: 0, maximum: 1440, description: 'time: least minutes billed' })),
    period: Type.Optional(oneOf(['month', 'quarter', 'year'] as const, 'subscription: billing period')),
    sku: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'goods: stock keeping unit' })),
  },
  {
    additionalProperties: false,
    description: 'Per type: time {rounding_min, minimum_min}, goods {sku}, subscription {period}; service none',
  },
);
const Translation = Type.Object(
  { name: Name('Name in this locale'), description: Type.Optional(Text('Description in this locale', 2000)) },
  { additionalProperties: false },
);
const Translations = Type.Record(LocaleCode('locale'), Translation, {
  additionalProperties: false,
  maxProperties: 50,
  description: '{locale: {name, description}}, e.g. {"et": {"name": "Raamatupidamine"}}; up to 50 locales',
});

export const ProductPrice = Type.Object(
  {
    id: Type.Integer(),
    product_id: Type.Integer(),
    net_price: Type.Number({ description: 'Unit price without tax, up to 4 decimals' }),
    currency: Nullable(Currency('ISO 4217 code; null means the company currency')),
    active_from: DateOnly('First day the price applies (YYYY-MM-DD); 2000-01-01 when omitted on create'),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'ProductPrice' },
);
export type ProductPriceRecord = Static<typeof ProductPrice>;

const productFields = {
  name: Name('Product name, 1-255 characters'),
  status: oneOf(PRODUCT_STATUSES, 'active (default) or inactive (retired)'),
  type: oneOf(PRODUCT_TYPES, 'service (default), time, goods or subscription'),
  type_args: Nullable(TypeArgs),
  unit: Text('Unit printed on rows, e.g. h or pcs', 32),
  pricelist_type: Nullable(oneOf(PRICELIST_TYPES, 'general: price list applies; contract: rows set the price')),
  bill_by: Nullable(oneOf(BILL_BY, 'unit: quantity on the row; hour: logged time; period: once per period')),
  billable_filter: Nullable(oneOf(BILLABLE_FILTERS, 'which time entries count (bill_by hour)')),
  topics: IdList('Topic ids the product applies to'),
  translations: Nullable(Translations),
  tax_id: Nullable(Id('Tax of the company; rate and name are read from it')),
  article_id: Nullable(Id('Accounting article id')),
  resource_id: Nullable(Id('Resource id')),
  billing_project_id: Nullable(Id('Billing project id')),
  ext_variable: Text('Free text for integrations'),
};

export const Product = Type.Object(
  {
    id: Type.Integer(),
    ...productFields,
    topics: Type.Array(Type.Integer()),
    tax_rate: Nullable(Type.Number({ description: "The tax's rate as a fraction (0.22)" })),
    tax_name: Nullable(Type.String()),
    prices: Type.Array(ProductPrice, { description: 'All prices, by active_from; [] without financials' }),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Product' },
);
export type ProductRecord = Static<typeof Product>;

export const ProductCreate = Type.Object(
  { ...mapOptional(productFields), name: productFields.name },
  { additionalProperties: false, title: 'ProductCreate' },
);
export type ProductCreateBody = Static<typeof ProductCreate>;
export const ProductUpdate = Type.Object(mapOptional(productFields), {
  additionalProperties: false,
  title: 'ProductUpdate',
  description: `Writing ${MONEY_WRITABLE.join(', ')} needs the financials tier (admin keys)`,
});
export type ProductUpdateBody = Static<typeof ProductUpdate>;

export const PRODUCT_LIST_OPTIONS = {
  sortable: { id: 'p.id', name: 'p.name', created_at: 'p.created_at', updated_at: 'p.updated_at' },
  defaultSort: 'id',
  cursor: true, // in the spec's cursor-mode list (Endpoints, conventions 3)
};
export const PRODUCT_FILTERS = ['status', 'type', 'q'] as const;
export const ProductListQuery = listQuery(
  {
    status: Type.Optional(EnumList(PRODUCT_STATUSES, 'Status filter')),
    type: Type.Optional(EnumList(PRODUCT_TYPES, 'Type filter')),
    q: Type.Optional(Type.String({ maxLength: 255, description: 'Name contains (case-insensitive)' })),
  },
  PRODUCT_LIST_OPTIONS,
);
export type ProductListParams = Static<typeof ProductListQuery>;

const priceFields = {
  net_price: Type.Number({ description: 'Unit price without tax; up to 4 decimals, below 10^10 in size' }),
  currency: ProductPrice.properties.currency,
  active_from: DateOnly('First day the price applies (YYYY-MM-DD); default 2000-01-01'),
};
export const ProductPriceCreate = Type.Object(
  { ...mapOptional(priceFields), net_price: priceFields.net_price },
  { additionalProperties: false, title: 'ProductPriceCreate' },
);
export type ProductPriceCreateBody = Static<typeof ProductPriceCreate>;
export const ProductPriceUpdate = Type.Object(mapOptional(priceFields), {
  additionalProperties: false,
  title: 'ProductPriceUpdate',
});
export type ProductPriceUpdateBody = Static<typeof ProductPriceUpdate>;

export const PRICE_LIST_OPTIONS = {
  sortable: { id: 'pp.id', active_from: 'pp.active_from', created_at: 'pp.created_at' },
  defaultSort: 'active_from',
  // Prices are not in the spec's list of cursor-mode resources.
  cursor: false,
};
export const ProductPriceListQuery = listQuery({}, PRICE_LIST_OPTIONS);
export type ProductPriceListParams = Static<typeof ProductPriceListQuery>;
