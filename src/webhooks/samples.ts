/**
 * Sample records for GET /webhooks/example when the company has recorded no event of the kind
 * yet (otherwise the example shows the latest real one). They pass through the same
 * buildDelivery as live events, so shaping rules (deleted = {id}, lean clients) apply to them too.
 */
const STAMP = '2026-01-15T09:30:00.000Z';

const SAMPLES: Record<string, Record<string, unknown>> = {
  client: {
    id: 101, name: 'Acme Ltd', status: 'active', type: 'client', locale_code: 'en', reg_code: '12345678', vat_code: null,
    address_street: '1 Main Street', address_city: 'Springfield', address_state: null, address_zip: '12345', address_country_code: 'us',
    default_person_id: 7, ext_client_id: null, client_initials: 'AL', parent_id: null, has_monitor: 0, timing_required: 0, topic_required: 0,
    custom_fields: null, groups: [], created_at: STAMP, updated_at: STAMP,
  },
  contact: {
    id: 55, client_id: 101, person_id: null, is_primary: 1, name: 'Jane', surname: 'Doe', email: 'jane@acme.example', job_title: 'CFO',
    mobile_phone: null, work_phone: null, locale_code: 'en', birthday: null, ext_contact_id: null, custom_fields: null, created_at: STAMP, updated_at: STAMP,
  },
  task: {
    id: 900, client_id: 101, project_id: null, topic_id: null, project_status_from: null, title: 'Prepare the annual report', description: '',
    status: 'new', type: 'task', is_important: false, is_extra: false, is_recurring: 0, date: null, due_date: '2026-02-01T00:00:00.000Z',
    finished_at: null, has_due_date: 1, estimation: 3600, timezone: 'UTC', assignees: [7], workflow_role_ids: [], custom_fields: null,
    created_at: STAMP, updated_at: STAMP,
  },
  project: {
    id: 30, name: 'Website relaunch', project_type_id: 2, client_id: 101, manager_id: 7, status: 'active', status_text: null, event_date: null,
    custom_fields: null, created_at: STAMP, updated_at: STAMP,
  },
  invoice: {
    id: 4001, client_id: 101, contract_id: null, status: 'draft', invoice_number: null, invoice_date: '2026-01-15', due_date: '2026-01-29',
    net_sum: 1000, tax_sum: 220, total_sum: 1220, paid_sum: 0, currency: 'EUR', created_at: STAMP, updated_at: STAMP,
  },
  time_entry: {
    id: 7001, task_id: 900, person_id: 7, start: '2026-01-15T08:00:00.000Z', end: '2026-01-15T09:30:00.000Z', duration: 5400, billable: 1,
    description: 'Drafting', created_at: STAMP, updated_at: STAMP,
  },
};

export function sampleRecord(entity: string): Record<string, unknown> {
  return { ...(SAMPLES[entity] ?? { id: 1 }) };
}

export const SAMPLE_OCCURRED_AT = STAMP;
