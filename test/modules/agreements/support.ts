import assert from 'node:assert/strict';
import type { TestApp } from '../../helpers.ts';

/** What the agreement tests share: the stored row, a fresh member's person, and a create that must succeed. */
export function agreementFixtures(t: TestApp) {
  async function stored(id: number) {
    return t.db.db
      .selectFrom('agreements')
      .selectAll()
      .where('company_id', '=', t.tenant.companyId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** A fresh member's person, so each test's overlaps involve only its own agreements. */
  async function newPerson(tenant = t.tenant): Promise<number> {
    const p = await t.db.db
      .insertInto('people')
      .values({ company_id: tenant.companyId, name: 'Fresh' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.db.insertInto('members').values({ company_id: tenant.companyId, person_id: p.id }).execute();
    return p.id;
  }

  async function create(body: Record<string, unknown>, tenant = t.tenant) {
    const res = await t.request('POST', '/agreements', { body, tenant });
    assert.equal(res.status, 201, res.text);
    return res.body.data;
  }

  return { stored, newPerson, create };
}
