import type { ColumnType, Generated } from 'kysely';

/** Kysely's view of the tables. Timestamps are read as ISO 8601 UTC text (see database.ts); numeric comes back as text. */
type Stamp = ColumnType<string, string | undefined, string>;
type Json = Record<string, unknown>;

export interface CompaniesTable {
  id: string;
  name: string;
  timezone: ColumnType<string, string | undefined, string>;
  currency: ColumnType<string, string | undefined, string>;
  subscription_status: ColumnType<'active' | 'lapsed', 'active' | 'lapsed' | undefined, 'active' | 'lapsed'>;
  plan: ColumnType<'pro' | 'basic', 'pro' | 'basic' | undefined, 'pro' | 'basic'>;
  features: ColumnType<Json, string | undefined, string>;
  created_at: Stamp;
  updated_at: Stamp;
}

interface TenantRow {
  company_id: string;
  id: Generated<number>;
  created_at: Stamp;
  updated_at: Stamp;
}

interface SoftDeleted { deleted_at: ColumnType<string | null, string | null | undefined, string | null> }

export interface PeopleTable extends TenantRow {
  name: string;
  surname: string | null;
  email: string | null;
  phone: string | null;
}

export interface MembersTable extends TenantRow {
  person_id: number;
  role: string;
  status: string;
  title: string | null;
  initials: string | null;
  locale_code: string | null;
  region_code: string | null;
  birthday: ColumnType<string | null, string | null | undefined, string | null>;
  timezone: string | null;
  address_city: string | null;
  address_country_code: string | null;
  avatar: string | null;
  group_ids: ColumnType<number[], number[] | undefined, number[]>;
  ext_user_id: string | null;
  member_type: string | null;
  hr_lead_id: number | null;
  flextime_credit: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  vacation_credit: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  custom_fields: ColumnType<Json | null, string | null | undefined, string | null>;
}

export interface ApiKeysTable extends TenantRow {
  name: string;
  key_prefix: string;
  key_hash: string;
  auth_type: ColumnType<string, string | undefined, string>;
  kind: 'integration' | 'personal';
  scopes: string[];
  person_id: number | null;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  revoked_at: string | null;
  expires_at: string | null;
  grace_expires_at: string | null;
  rotated_to_id: number | null;
  ip_allowlist: string[] | null;
  last_used_at: string | null;
}

export interface ClientGroupsTable extends TenantRow, SoftDeleted {
  name: string;
  color: string | null;
  status: string;
}

export interface ClientsTable extends TenantRow, SoftDeleted {
  name: string;
  status: string;
  type: ColumnType<string, string | undefined, string>;
  locale_code: string | null;
  reg_code: string | null;
  vat_code: string | null;
  address_street: string | null;
  address_city: string | null;
  address_state: string | null;
  address_zip: string | null;
  address_country_code: string | null;
  default_person_id: number | null;
  ext_client_id: string | null;
  client_initials: string | null;
  parent_id: number | null;
  has_monitor: ColumnType<number, number | undefined, number>;
  timing_required: number;
  topic_required: number;
  custom_fields: ColumnType<Json | null, string | null | undefined, string | null>;
}

export interface ClientGroupLinksTable {
  company_id: string;
  client_id: number;
  group_id: number;
}

export interface ContactsTable extends TenantRow, SoftDeleted {
  client_id: number;
  person_id: number | null;
  is_primary: number;
  name: string;
  surname: string | null;
  email: string | null;
  job_title: string | null;
  mobile_phone: string | null;
  work_phone: string | null;
  locale_code: string | null;
  birthday: ColumnType<string | null, string | null | undefined, string | null>;
  ext_contact_id: string | null;
  custom_fields: ColumnType<Json | null, string | null | undefined, string | null>;
}

export interface TopicsTable extends TenantRow, SoftDeleted {
  name: string;
  status: string;
  billable: number;
  color: string | null;
}

export interface ClientMembersTable extends TenantRow, SoftDeleted {
  client_id: number;
  person_id: number;
  role: string | null;
}

export interface EventsTable {
  company_id: string;
  id: Generated<string>;
  uuid: string;
  event: string;
  entity: string;
  action: string;
  record_id: number;
  data: ColumnType<Json, string, string>;
  api_key_id: number | null;
  person_id: number | null;
  occurred_at: string;
}

export interface IdempotencyKeysTable {
  company_id: string;
  api_key_id: number;
  key: string;
  request_hash: string;
  state: 'running' | 'done';
  response_status: number | null;
  response_headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  response_body: string | null;
  created_at: Stamp;
  expires_at: string;
}

export interface DB {
  platform_settings: { name: string; value: string };
  companies: CompaniesTable;
  people: PeopleTable;
  members: MembersTable;
  api_keys: ApiKeysTable;
  client_groups: ClientGroupsTable;
  clients: ClientsTable;
  client_group_links: ClientGroupLinksTable;
  contacts: ContactsTable;
  client_members: ClientMembersTable;
  topics: TopicsTable;
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
}
