import type { Executor } from '../../db/database.ts';

/**
 * The first key of a new company, for its owner: made with the company, before any request context exists.
 * tenant: deliberate SQL: the company is the one just created.
 */
export async function insertOwnerKey(
  db: Executor,
  companyId: string,
  owner: { key: { prefix: string; hash: string }; scopes: string[]; personId: number },
): Promise<number> {
  const apiKey = await db
    .insertInto('api_keys')
    .values({
      company_id: companyId,
      name: 'Owner admin key',
      key_prefix: owner.key.prefix,
      key_hash: owner.key.hash,
      kind: 'integration',
      scopes: owner.scopes,
      person_id: owner.personId,
      revoked_at: null,
      expires_at: null,
      grace_expires_at: null,
      rotated_to_id: null,
      ip_allowlist: null,
      last_used_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return apiKey.id;
}
