import { Type, type Static } from 'typebox';
import { EnumList, Id, mapOptional, MoneyOut, Nullable, Timestamp } from '../../platform/fields.ts';
import type { MoneyFields } from '../../platform/http.ts';
import { listQuery, type ListOptions } from '../../platform/lists.ts';

export const MONITOR_TYPES = ['revenue', 'hours', 'margin'] as const;
export const MONITOR_FREQUENCIES = ['week', 'month', 'quarter', 'year'] as const;

const MonitorType = Type.Union([Type.Literal('revenue'), Type.Literal('hours'), Type.Literal('margin')], {
  description: 'What is watched: revenue (net invoiced), hours (time logged) or margin (revenue minus cost)',
});
const Frequency = Type.Union(
  [Type.Literal('week'), Type.Literal('month'), Type.Literal('quarter'), Type.Literal('year')],
  { description: 'The period the watched figure is summed over' },
);
const Value = Type.Number({
  description: 'Lower end of the threshold band, 2 decimals; changing it needs an admin key and If-Match',
});
const RangeValue = Nullable(
  Type.Number({
    description:
      'Upper end of the band (not below value), 2 decimals; null: no upper end; changing it needs admin and If-Match',
  }),
);

const monitorFields = {
  client_id: Id('The client watched'),
  type: MonitorType,
  role_person_id: Nullable(Id('The member the monitor reports to; null: the client team as a whole')),
  frequency: Frequency,
  active: Type.Boolean({ description: 'true (default): watched; the client reads has_monitor 1 while one is active' }),
  value: Value,
  range_value: RangeValue,
};

export const Monitor = Type.Object(
  {
    id: Type.Integer(),
    ...monitorFields,
    value: MoneyOut(Value),
    created_at: Timestamp('Creation time (UTC)'),
    updated_at: Timestamp('Last change (UTC)'),
  },
  { title: 'Monitor' },
);
export type MonitorRecord = Static<typeof Monitor>;

/** Monitor thresholds: admin (financials) and If-Match to change; null to a key without financials. */
export const THRESHOLD_FIELDS = ['value', 'range_value'] as const;
export const MONITOR_MONEY: MoneyFields = { write: THRESHOLD_FIELDS, read: THRESHOLD_FIELDS };

const { client_id: _client, ...nestedFields } = monitorFields;
const required = { type: monitorFields.type, frequency: monitorFields.frequency, value: monitorFields.value };

// No schema defaults: the body stays exactly as sent (the idempotency hash covers it); the service fills them.
export const MonitorCreate = Type.Object(
  { ...mapOptional(monitorFields), ...required, client_id: monitorFields.client_id },
  { additionalProperties: false, title: 'MonitorCreate', description: 'Defaults: active true, range_value null' },
);
export type MonitorCreateBody = Static<typeof MonitorCreate>;
export const ClientMonitorCreate = Type.Object(
  { ...mapOptional(nestedFields), ...required },
  { additionalProperties: false, title: 'ClientMonitorCreate', description: 'The client is the path client' },
);
export type ClientMonitorCreateBody = Static<typeof ClientMonitorCreate>;
export const MonitorUpdate = Type.Object(mapOptional(monitorFields), {
  additionalProperties: false,
  title: 'MonitorUpdate',
  description: 'value and range_value need an admin key and If-Match; other fields honour If-Match when sent',
});
export type MonitorUpdateBody = Static<typeof MonitorUpdate>;

// Monitors are in the spec's list of cursor-mode resources.
export const MONITOR_LIST_OPTIONS: ListOptions = {
  sortable: { id: 'mo.id', created_at: 'mo.created_at', updated_at: 'mo.updated_at' },
  defaultSort: 'id',
  cursor: true, // in the spec's cursor-mode list (Endpoints, conventions 3)
};
const commonFilters = {
  type: Type.Optional(EnumList(MONITOR_TYPES, 'Type filter')),
  role_person_id: Type.Optional(Id('Monitors reporting to this person')),
  frequency: Type.Optional(EnumList(MONITOR_FREQUENCIES, 'Frequency filter')),
  active: Type.Optional(Type.Boolean({ description: 'true or false' })),
};
export const MONITOR_FILTERS = ['client_id', 'type', 'role_person_id', 'frequency', 'active'] as const;
export const CLIENT_MONITOR_FILTERS = ['type', 'role_person_id', 'frequency', 'active'] as const;
export const MonitorListQuery = listQuery(
  { client_id: Type.Optional(Id('Monitors of this client')), ...commonFilters },
  MONITOR_LIST_OPTIONS,
);
export const ClientMonitorListQuery = listQuery(commonFilters, MONITOR_LIST_OPTIONS);
/** The nested list's query lacks only client_id, so it passes as this type too. */
export type MonitorListParams = Static<typeof MonitorListQuery>;
