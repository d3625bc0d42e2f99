import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAutomation, db, owner, post, t } from './support.ts';

test('create, read, list, update and delete a task automation', async () => {
  const client = await post('/clients', { name: 'Rule client' });
  const created = await t.request('POST', '/task-automations', {
    key: 'write',
    body: { name: 'Onboarding', trigger: 'task_created', client_id: client.id, actions: { set_status: 'in_progress' } },
  });
  assert.equal(created.status, 201, created.text);
  const rule = created.body.data;
  assert.deepEqual(
    { ...rule, id: 0, created_at: '', updated_at: '' },
    {
      id: 0,
      name: 'Onboarding',
      trigger: 'task_created',
      client_id: client.id,
      project_id: null,
      topic_id: null,
      type: null,
      status: null,
      actions: { set_status: 'in_progress' },
      active: true,
      created_at: '',
      updated_at: '',
    },
  );
  const row = await db.selectFrom('task_automations').selectAll().where('id', '=', rule.id).executeTakeFirstOrThrow();
  assert.equal(row.company_id, t.tenant.companyId);
  assert.deepEqual(row.actions, { set_status: 'in_progress' });

  const read = await t.request('GET', `/task-automations/${rule.id}`, { key: 'write' });
  // The spec's row reads "GET/POST/PATCH/DELETE, write": a read key does not reach it (decision 0050).
  const readKey = await t.request('GET', `/task-automations/${rule.id}`, { key: 'read' });
  assert.deepEqual(
    [readKey.status, readKey.body.error.code, readKey.body.error.details],
    [403, 'FORBIDDEN', { required_scope: 'write' }],
  );
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body.data, rule);
  const listed = await t.request('GET', `/task-automations?trigger=task_created&client_id=${client.id}&active=true`);
  assert.deepEqual(
    listed.body.data.map((r: { id: number }) => r.id),
    [rule.id],
  );
  const none = await t.request('GET', '/task-automations?trigger=due_date_reached');
  assert.equal(none.status, 200);
  assert.equal(none.body.data.length, 0);

  const patched = await t.request('PATCH', `/task-automations/${rule.id}`, {
    body: { active: false, actions: { notify_person_ids: [owner] }, client_id: null },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.active, false);
  assert.equal(patched.body.data.client_id, null);
  assert.deepEqual(patched.body.data.actions, { notify_person_ids: [owner] });

  const removed = await t.request('DELETE', `/task-automations/${rule.id}`);
  assert.equal(removed.status, 204);
  assert.equal((await t.request('GET', `/task-automations/${rule.id}`)).status, 404);
  assert.equal((await t.request('PATCH', `/task-automations/${rule.id}`, { body: { name: 'x' } })).status, 404);
  assert.equal((await t.request('DELETE', `/task-automations/${rule.id}`)).status, 404);
  const stored = await db
    .selectFrom('task_automations')
    .select('deleted_at')
    .where('id', '=', rule.id)
    .executeTakeFirst();
  assert.notEqual(stored?.deleted_at, null);
});

test('bad input answers 400 with the field named, and references are checked', async () => {
  const other = await t.newTenant();
  const foreignClient = await post('/clients', { name: 'Foreign' }, other);
  const base = { name: 'Rule', trigger: 'task_created', actions: { set_status: 'finished' } };
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ ...base, trigger: 'sometimes' }, 'VALIDATION_ERROR'],
    [{ ...base, actions: {} }, 'VALIDATION_ERROR'],
    [{ name: 'Rule', trigger: 'task_created' }, 'VALIDATION_ERROR'],
    [{ ...base, extra: 1 }, 'VALIDATION_ERROR'],
    [{ ...base, actions: { set_status: 'finished', launch: true } }, 'VALIDATION_ERROR'],
    [{ ...base, name: 'bad\u0000name' }, 'VALIDATION_ERROR'],
    [{ ...base, name: 'x'.repeat(256) }, 'VALIDATION_ERROR'],
    [{ ...base, client_id: 'one' }, 'VALIDATION_ERROR'],
    [{ ...base, client_id: 99999999999 }, 'VALIDATION_ERROR'],
    [{ ...base, actions: { due_date_offset_days: 1e9 } }, 'VALIDATION_ERROR'],
    [{ ...base, actions: { checklist_items: Array.from({ length: 51 }, (_, i) => `item ${i}`) } }, 'VALIDATION_ERROR'],
    [{ ...base, actions: { notify_person_ids: [owner, owner] } }, 'VALIDATION_ERROR'],
    [{ ...base, actions: { follow_up: { title: 'F', extra: 1 } } }, 'VALIDATION_ERROR'],
    [{ ...base, client_id: foreignClient.id }, 'INVALID_CLIENT'],
    [{ ...base, project_id: 987654 }, 'INVALID_PROJECT'],
    [{ ...base, topic_id: 987654 }, 'INVALID_TOPIC'],
    [{ ...base, actions: { assign_person_id: 987654 } }, 'INVALID_PERSON'],
    [{ ...base, actions: { notify_person_ids: [owner, 987654] } }, 'INVALID_PERSON'],
    [{ ...base, actions: { follow_up: { title: 'F', assign_person_id: 987654 } } }, 'INVALID_PERSON'],
  ];
  for (const [body, code] of cases) {
    const res = await t.request('POST', '/task-automations', { body });
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 120)}: ${res.text}`);
    assert.equal(res.body.error.code, code, res.text);
  }
  const rule = await createAutomation({ ...base, active: false });
  const patch = await t.request('PATCH', `/task-automations/${rule.id}`, { body: { project_id: 987654 } });
  assert.equal(patch.status, 400);
  assert.equal(patch.body.error.code, 'INVALID_PROJECT');
  const count = await db
    .selectFrom('task_automations')
    .select(db.fn.countAll<number>().as('n'))
    .where('company_id', '=', t.tenant.companyId)
    .where('name', '=', 'Rule')
    .executeTakeFirstOrThrow();
  assert.equal(count.n, 1, 'no refused rule was stored');
});

test("rules are company configuration: a plain member's key reads them but cannot write; read keys cannot write", async () => {
  const rule = await createAutomation({ trigger: 'task_created', actions: { set_status: 'finished' }, active: false });
  const body = { name: 'Mine', trigger: 'task_created', actions: { set_status: 'finished' } };
  const member = await t.request('POST', '/task-automations', { key: 'personal', body });
  assert.equal(member.status, 403);
  assert.equal(member.body.error.code, 'FORBIDDEN');
  const read = await t.request('POST', '/task-automations', { key: 'read', body });
  assert.equal(read.status, 403);
  assert.equal((await t.request('GET', `/task-automations/${rule.id}`, { key: 'personal' })).status, 200);
  const other = await t.newTenant();
  assert.equal((await t.request('GET', `/task-automations/${rule.id}`, { tenant: other })).status, 404);
});

test('POST /task-automations honours Idempotency-Key', async () => {
  const body = { name: 'Once', trigger: 'task_created', actions: { set_status: 'finished' }, active: false };
  const headers = { 'idempotency-key': 'automation-once' };
  const first = await t.request('POST', '/task-automations', { body, headers });
  const again = await t.request('POST', '/task-automations', { body, headers });
  assert.equal(first.status, 201);
  assert.equal(again.status, 201);
  assert.equal(again.headers.get('idempotency-replayed'), 'true');
  assert.deepEqual(again.body, first.body);
  const reused = await t.request('POST', '/task-automations', { body: { ...body, name: 'Other' }, headers });
  assert.equal(reused.status, 409);
  assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
});
