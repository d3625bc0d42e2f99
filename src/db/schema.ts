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
  workflow_role_id: number | null;
}

export interface ProjectTypesTable extends TenantRow, SoftDeleted {
  name: string;
  status: string;
}

export interface ProjectsTable extends TenantRow, SoftDeleted {
  name: string;
  project_type_id: number;
  client_id: number | null;
  manager_id: number | null;
  status: string;
  status_text: string | null;
  event_date: string | null;
  custom_fields: ColumnType<Json | null, string | null | undefined, string | null>;
  archived_from: string | null;
}

export interface TaskRelationsTable extends TenantRow, SoftDeleted {
  task_id: number;
  depends_on_id: number;
}

export interface TasksTable extends TenantRow, SoftDeleted {
  client_id: number | null;
  project_id: number | null;
  topic_id: number | null;
  project_status_from: string | null;
  title: string;
  description: ColumnType<string, string | undefined, string>;
  status: string;
  reopen_status: string | null;
  type: string;
  template_kind: 'workflow_template' | 'project_workflow' | null;
  is_important: boolean;
  is_extra: boolean;
  is_recurring: number;
  date: string | null;
  due_date: string | null;
  finished_at: string | null;
  has_due_date: number;
  estimation: number | null;
  timezone: string | null;
  checklist: ColumnType<unknown, string | null | undefined, string | null>;
  recurrence_rule: ColumnType<unknown, string | null | undefined, string | null>;
  recurrence_parent_id: number | null;
  recurrence_date: string | null;
  workflow_role_ids: ColumnType<number[], number[] | undefined, number[]>;
  custom_fields: ColumnType<Json | null, string | null | undefined, string | null>;
}

export interface TaskAssigneesTable {
  company_id: string;
  task_id: number;
  person_id: number;
}

export interface TimeEntriesTable extends TenantRow, SoftDeleted {
  task_id: number;
  person_id: number;
  start: string;
  end: string | null;
  duration: number | null;
  billable: number;
  description: ColumnType<string, string | undefined, string>;
}

export interface TaskCommentsTable extends TenantRow, SoftDeleted {
  task_id: number;
  person_id: number | null;
  body: string;
}

export interface JobsTable {
  company_id: string;
  id: Generated<number>;
  type: string;
  status: ColumnType<string, string | undefined, string>;
  params: ColumnType<Json, string | undefined, string>;
  total_count: number | null;
  processed_count: ColumnType<number, number | undefined, number>;
  failed_count: number | null;
  failed_client_ids: number[] | null;
  skipped_count: number | null;
  skipped_client_ids: number[] | null;
  error: string | null;
  api_key_id: number | null;
  started_at: string | null;
  finished_at: string | null;
  heartbeat_at: ColumnType<string | null, string | null | undefined, string | null>;
  target_ids: ColumnType<number[] | null, number[] | null | undefined, number[] | null>;
  created_at: Stamp;
  updated_at: Stamp;
}

export interface ActivitiesTable {
  company_id: string;
  id: Generated<number>;
  entity: string;
  record_id: number | null;
  action: string;
  fields: ColumnType<string[], string[] | undefined, string[]>;
  api_key_id: number | null;
  person_id: number | null;
  method: string;
  path: string;
  request_id: string | null;
  occurred_at: Stamp;
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

export interface WorkflowRolesTable extends TenantRow, SoftDeleted {
  name: string;
  color: string | null;
  sort_order: number;
}

export interface RolesTable extends TenantRow, SoftDeleted {
  name: string;
}

export interface TeamsTable extends TenantRow, SoftDeleted {
  name: string;
  description: string | null;
  lead_id: number | null;
}

export interface TeamMembersTable {
  company_id: string;
  team_id: number;
  person_id: number;
}

export interface CalendarEntriesTable extends TenantRow, SoftDeleted {
  type: string;
  person_id: number | null;
  status: ColumnType<string, string | undefined, string>;
  date_from: string;
  date_until: string;
  description: string | null;
}

export interface GlobalHolidaysTable {
  id: Generated<number>;
  country_code: string | null;
  date: string;
  name: string;
  created_at: Stamp;
  updated_at: Stamp;
}

export interface WebhooksTable extends TenantRow, SoftDeleted {
  event: string;
  url: string;
  secret: string | null;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  failure_count: ColumnType<number, number | undefined, number>;
  last_failure_at: ColumnType<string | null, string | null | undefined, string | null>;
  disabled_at: ColumnType<string | null, string | null | undefined, string | null>;
  disabled_reason: ColumnType<'failures' | 'gone' | null, 'failures' | 'gone' | null | undefined, 'failures' | 'gone' | null>;
  created_by_key_id: number | null;
  created_by_person_id: number | null;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'not_delivered' | 'throttled';
export type AttemptStatus = 'delivered' | 'failed' | 'blocked' | 'refused' | 'not_delivered' | 'throttled' | 'error';

export interface WebhookDeliveriesTable {
  company_id: string;
  id: Generated<number>;
  webhook_id: number;
  event_id: number;
  state: ColumnType<DeliveryState, DeliveryState | undefined, DeliveryState>;
  attempt: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<string, string | undefined, string>;
  slot_at: ColumnType<string | null, string | null | undefined, string | null>;
  deferred_since: ColumnType<string | null, string | null | undefined, string | null>;
  replay: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Stamp;
  updated_at: Stamp;
}

export interface WebhookAttemptsTable {
  company_id: string;
  id: Generated<number>;
  webhook_id: number;
  delivery_id: number;
  event_id: number;
  attempt: number;
  status: AttemptStatus;
  response_status: number | null;
  response_body: string | null;
  duration_ms: number | null;
  next_retry_at: string | null;
  started_at: string;
  finished_at: string;
}

export interface NotificationsTable extends TenantRow {
  person_id: number;
  type: string;
  title: string;
  body: string;
  data: ColumnType<Json | null, string | null | undefined, string | null>;
  read_at: string | null;
}

export interface MailOutboxTable extends TenantRow {
  recipient: string;
  subject: string;
  body: string;
  status: ColumnType<'queued' | 'sent' | 'failed' | 'logged', 'queued' | 'sent' | 'failed' | 'logged' | undefined, 'queued' | 'sent' | 'failed' | 'logged'>;
  tries: ColumnType<number, number | undefined, number>;
  error: string | null;
  sent_at: string | null;
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
  project_types: ProjectTypesTable;
  projects: ProjectsTable;
  tasks: TasksTable;
  task_assignees: TaskAssigneesTable;
  task_relations: TaskRelationsTable;
  time_entries: TimeEntriesTable;
  task_comments: TaskCommentsTable;
  jobs: JobsTable;
  activities: ActivitiesTable;
  events: EventsTable;
  idempotency_keys: IdempotencyKeysTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_pacing: { company_id: string; next_slot_at: string; last_sent_at: ColumnType<string | null, string | null | undefined, string | null> };
  notifications: NotificationsTable;
  mail_outbox: MailOutboxTable;
  workflow_roles: WorkflowRolesTable;
  roles: RolesTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  calendar_entries: CalendarEntriesTable;
  global_holidays: GlobalHolidaysTable;
}
