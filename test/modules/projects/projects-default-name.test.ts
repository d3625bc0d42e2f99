import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';
import { projectFixtures } from './fixtures.ts';

const t = await createTestApp();
const f = projectFixtures(t);

const create = (body: Record<string, unknown>, tenant = t.tenant) => t.request('POST', '/projects', { body, tenant });

test('POST /projects with only project_type_id is 201, named after the type with a running number', async () => {
  const tenant = await t.newTenant({ name: 'Fresh Co' });
  const general = await f.projectTypeId(tenant, 'General');
  const event = await f.projectTypeId(tenant, 'Event');

  const first = await create({ project_type_id: general }, tenant);
  assert.equal(first.status, 201, first.text);
  assert.equal(first.body.data.name, 'General 1');
  assert.equal(first.body.data.project_type_id, general);
  assert.equal(first.body.data.status, 'active');
  assert.equal((await create({ project_type_id: general }, tenant)).body.data.name, 'General 2');
  assert.equal((await create({ project_type_id: event }, tenant)).body.data.name, 'Event 1');

  // Named and deleted projects of the type count too, so a default name is not handed out twice.
  const named = await create({ project_type_id: general, name: 'Launch' }, tenant);
  assert.equal(named.body.data.name, 'Launch');
  assert.equal((await t.request('DELETE', `/projects/${first.body.data.id}`, { tenant })).status, 204);
  const fourth = await create({ project_type_id: general }, tenant);
  assert.equal(fourth.body.data.name, 'General 4');

  const stored = await t.db.db
    .selectFrom('projects')
    .select('name')
    .where('company_id', '=', tenant.companyId)
    .orderBy('id')
    .execute();
  assert.deepEqual(
    stored.map((r) => r.name),
    ['General 1', 'General 2', 'Event 1', 'Launch', 'General 4'],
  );
  const read = await t.request('GET', `/projects/${fourth.body.data.id}`, { tenant });
  assert.equal(read.body.data.name, 'General 4');
});

test('without a name, a bad project type is still 400 INVALID_PROJECT_TYPE and an explicit null name is refused', async () => {
  const unknown = await create({ project_type_id: 2147483000 });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error.code, 'INVALID_PROJECT_TYPE');
  const nullName = await create({ project_type_id: await f.projectTypeId(), name: null });
  assert.equal(nullName.status, 400);
  assert.equal(nullName.body.error.code, 'VALIDATION_ERROR');
  assert.equal(nullName.body.error.details.errors[0].field, 'name');
});
