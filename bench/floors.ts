// The floors, in a process of their own: a bare Fastify (no logger, no hooks, no schemas) with
//   (a) GET /ok answering {ok:true}: the cost of HTTP + Fastify alone;
//   (b) the scenarios' own paths doing the same SQL as the service's repositories, through the same
//       pg pool (src/db/database.ts), with no auth, tenancy checks, validation or serialization schema.
// The SQL below mirrors the repositories as they are; the harness compares each floor's answer with
// the service's before measuring and flags a mismatch, so a drift between the two cannot go unseen.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyRequest } from 'fastify';
import { openDatabase } from '../src/db/database.ts';
import { answerControl } from './child.ts';
import { invoiceRecordSql } from '../src/modules/invoices/invoices.repository.ts';
import { CONTACTS_INLINE_CAP } from '../src/modules/clients/clients.schemas.ts';
import { COMMENTS_INLINE_CAP } from '../src/modules/tasks/tasks.schemas.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('bench/floors.ts needs DATABASE_URL');
const { pool, close } = openDatabase(url, { applicationName: 'bench-floor' });
const app = Fastify({ logger: false });

const company = (request: FastifyRequest) => request.headers['x-service-company'] as string;
const CAP = 10_000;

// clients.repository project(): columns, groups and up to CONTACTS_INLINE_CAP + 1 contacts as JSON, built in SQL.
const CLIENT = `select c.id, c.name, c.status, c.type, c.locale_code, c.reg_code, c.vat_code, c.address_street, c.address_city, c.address_state,
  c.address_zip, c.address_country_code, c.default_person_id, c.ext_client_id, c.client_initials, c.parent_id, c.has_monitor, c.timing_required,
  c.topic_required, c.custom_fields, c.created_at, c.updated_at,
  array(select l.group_id from client_group_links l join client_groups g on g.company_id = l.company_id and g.id = l.group_id
    where l.company_id = c.company_id and l.client_id = c.id and g.deleted_at is null order by l.group_id) as groups,
  (select coalesce(json_agg(x), '[]') from (select ct.id, ct.client_id, ct.person_id, ct.is_primary, ct.name, ct.surname, ct.email, ct.job_title,
    ct.mobile_phone, ct.work_phone, ct.locale_code, ct.birthday, ct.ext_contact_id, ct.custom_fields,
    to_char(ct.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
    to_char(ct.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at from contacts ct
    where ct.company_id = c.company_id and ct.client_id = c.id and ct.deleted_at is null order by ct.is_primary desc, ct.id limit $1) x) as contacts
  from clients c where c.company_id = $2 and c.deleted_at is null`;

// time-entries.repository base() + project().
const ENTRY_FROM = `from time_entries te join tasks t on t.company_id = te.company_id and t.id = te.task_id where te.company_id = $1 and te.deleted_at is null`;
const ENTRY_COLUMNS = `te.id, te.task_id, t.title as task_name, t.client_id, t.topic_id, te.person_id, te.start, te."end", te.duration, te.billable,
  te.description, te.created_at, te.updated_at`;

// tasks.repository: live task/request rows outside templates (neither a template row nor under a template client),
// with assignees, tracked time and the newest comments (cap + 1) inlined.
const TASK_FROM = `from tasks t where t.company_id = $1 and t.deleted_at is null and t.type in ('task', 'request')
  and (t.template_kind is null and not exists (select 1 from clients pc where pc.company_id = t.company_id and pc.id = t.client_id and pc.type = 'plan'))
  and t.status = any($2::text[]) and exists (select 1 from task_assignees a where a.company_id = t.company_id and a.task_id = t.id and a.person_id = $3)`;
const TASK_COLUMNS = `t.id, t.client_id, t.project_id, t.topic_id, t.project_status_from, t.title, t.description, t.status, t.type, t.is_important,
  t.is_extra, t.is_recurring, t.date, t.due_date, t.finished_at, t.has_due_date, t.estimation, t.timezone, t.checklist, t.recurrence_rule,
  t.workflow_role_ids, t.recurrence_parent_id, t.recurrence_date, t.custom_fields, t.created_at, t.updated_at,
  array(select ta.person_id from task_assignees ta where ta.company_id = t.company_id and ta.task_id = t.id order by ta.person_id) as assignees,
  (select coalesce(sum(case when te."end" is null then greatest(0, floor(extract(epoch from now() - te.start)))
    else coalesce(te.duration, floor(extract(epoch from te."end" - te.start))) end), 0)::bigint
    from time_entries te where te.company_id = t.company_id and te.task_id = t.id and te.deleted_at is null) as tracked_time,
  (select coalesce(json_agg(x order by x.id), '[]') from (
    select c.id, c.task_id, c.person_id, c.body, to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
      to_char(c.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at
    from task_comments c where c.company_id = t.company_id and c.task_id = t.id and c.deleted_at is null
    order by c.id desc limit ${COMMENTS_INLINE_CAP + 1}) x) as comments`;

const countCapped = (from: string, values: unknown[]) =>
  pool
    .query(`select (select count(*)::int from (select 1 ${from} limit ${CAP + 1}) as capped) as n`, values)
    .then((r) => r.rows[0].n as number);

/** An offset page as paginate() answers it: limit + 1 rows (has_more) and the capped total, in parallel. */
async function offsetPage(select: string, from: string, order: string, values: unknown[], limit: number) {
  const [page, total] = await Promise.all([
    pool.query(`select ${select} ${from} order by ${order} limit ${limit + 1} offset 0`, values),
    countCapped(from, values),
  ]);
  return {
    data: page.rows.slice(0, limit),
    meta: { total: total > CAP ? '10000+' : total, limit, offset: 0, has_more: page.rows.length > limit },
  };
}

/** As the repositories' withTruncation: an inlined list read with one item over its cap says it was cut. */
function markTruncated(rows: Record<string, any>[], list: string, flag: string, cap: number, dropOldest: boolean) {
  for (const row of rows) {
    const items = row[list] as unknown[];
    const cut = items.length > cap;
    if (cut) row[list] = dropOldest ? items.slice(1) : items.slice(0, cap);
    row[flag] = cut;
  }
  return rows;
}

app.get('/ok', async () => ({ ok: true }));

// invoices.repository: the invoice with up to 200 rows as JSON text built in SQL, sent on as it comes.
const INVOICE = `select i.id, ${invoiceRecordSql('i')}::text as record from invoices i where i.company_id = $1`;

app.get('/api/v3/invoices/:id', async (request, reply) => {
  const { rows } = await pool.query(`${INVOICE} and i.id = $2`, [
    company(request),
    Number((request.params as { id: string }).id),
  ]);
  if (!rows[0]) return reply.code(404).send({ error: { code: 'NOT_FOUND' } });
  return reply.type('application/json').send(`{"data":${rows[0].record}}`);
});

app.get('/api/v3/invoices', async (request, reply) => {
  const limit = Number((request.query as { limit?: string }).limit ?? 50);
  const [page, total] = await Promise.all([
    pool.query(`${INVOICE} order by i.id asc limit $2 offset 0`, [company(request), limit + 1]),
    countCapped('from invoices i where i.company_id = $1', [company(request)]),
  ]);
  const meta = { total: total > CAP ? '10000+' : total, limit, offset: 0, has_more: page.rows.length > limit };
  const data = page.rows.slice(0, limit).map((r) => r.record as string);
  return reply.type('application/json').send(`{"data":[${data.join(',')}],"meta":${JSON.stringify(meta)}}`);
});

app.get('/api/v3/clients/:id', async (request, reply) => {
  const { rows } = await pool.query(`${CLIENT} and c.id = $3`, [
    CONTACTS_INLINE_CAP + 1,
    company(request),
    Number((request.params as { id: string }).id),
  ]);
  if (!rows[0]) return reply.code(404).send({ error: { code: 'NOT_FOUND' } });
  return { data: markTruncated(rows, 'contacts', 'contacts_truncated', CONTACTS_INLINE_CAP, false)[0] };
});

app.get('/api/v3/clients', async (request) => {
  const limit = Number((request.query as { limit?: string }).limit ?? 50);
  const [page, total] = await Promise.all([
    pool.query(`${CLIENT} and c.type <> 'plan' order by c.id asc limit $3 offset 0`, [
      CONTACTS_INLINE_CAP + 1,
      company(request),
      limit + 1,
    ]),
    countCapped(`from clients c where c.company_id = $1 and c.deleted_at is null and c.type <> 'plan'`, [
      company(request),
    ]),
  ]);
  return {
    data: markTruncated(page.rows.slice(0, limit), 'contacts', 'contacts_truncated', CONTACTS_INLINE_CAP, false),
    meta: { total: total > CAP ? '10000+' : total, limit, offset: 0, has_more: page.rows.length > limit },
  };
});

app.get('/api/v3/tasks', async (request) => {
  const q = request.query as { status: string; assignee_id: string; limit?: string };
  const page = await offsetPage(
    TASK_COLUMNS,
    TASK_FROM,
    't.id asc',
    [company(request), q.status.split(','), Number(q.assignee_id)],
    Number(q.limit ?? 50),
  );
  markTruncated(page.data, 'comments', 'comments_truncated', COMMENTS_INLINE_CAP, true);
  return page;
});

/** Page 1 in offset mode (with the total), later pages by keyset on (start, id) as the cursor resumes them. */
app.get('/api/v3/time-entries', async (request) => {
  const q = request.query as { limit?: string; after_start?: string; after_id?: string };
  const limit = Number(q.limit ?? 50);
  if (q.after_start === undefined)
    return offsetPage(ENTRY_COLUMNS, ENTRY_FROM, 'te.start asc, te.id asc', [company(request)], limit);
  const { rows } = await pool.query(
    `select ${ENTRY_COLUMNS} ${ENTRY_FROM} and (te.start, te.id) > ($2, $3)
    order by te.start asc, te.id asc limit ${limit + 1} offset 0`,
    [company(request), q.after_start, Number(q.after_id)],
  );
  return { data: rows.slice(0, limit), meta: { limit, has_more: rows.length > limit, next_cursor: null } };
});

interface EntryBody {
  task_id: number;
  person_id: number;
  start: string;
  end: string;
  description?: string;
}

/** The rows a create writes (entries, their outbox events) and reads back, in one transaction, with no checks. */
async function insertEntries(companyId: string, entries: EntryBody[]) {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const values: unknown[] = [companyId];
    const tuples = entries.map((e) => {
      const duration = Math.round((Date.parse(e.end) - Date.parse(e.start)) / 1000);
      values.push(e.task_id, e.person_id, e.start, e.end, duration, e.description ?? '');
      const n = values.length;
      return `($1, $${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, 1, $${n})`;
    });
    const ids = (
      await client.query(
        `insert into time_entries (company_id, task_id, person_id, start, "end", duration, billable, description)
      values ${tuples.join(', ')} returning id`,
        values,
      )
    ).rows.map((r) => r.id as number);
    const { rows } = await client.query(`select ${ENTRY_COLUMNS} ${ENTRY_FROM} and te.id = any($2::int[])`, [
      companyId,
      ids,
    ]);
    const now = new Date().toISOString();
    await client.query(
      `insert into events (company_id, uuid, event, entity, action, record_id, data, occurred_at)
      select $1, u, 'time_entry.created', 'time_entry', 'created', r, d::jsonb, $2 from unnest($3::uuid[], $4::int[], $5::text[]) as x (u, r, d)`,
      [companyId, now, rows.map(() => randomUUID()), rows.map((r) => r.id), rows.map((r) => JSON.stringify(r))],
    );
    await client.query('commit');
    return rows;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

app.post('/api/v3/time-entries', async (request, reply) => {
  const rows = await insertEntries(company(request), [request.body as EntryBody]);
  return reply.code(201).send({ data: rows[0] });
});

app.post('/api/v3/time-entries/bulk', async (request, reply) => {
  const rows = await insertEntries(company(request), (request.body as { entries: EntryBody[] }).entries);
  return reply.code(201).send({ data: rows });
});

await app.listen({ port: 0, host: '127.0.0.1' });
answerControl(app.server, async () => {
  await app.close();
  await close();
});
