import type { Ctx } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { AppError, domainValidation, invalidReference, notFound } from '../../platform/errors.ts';
import { generateKey } from '../../platform/keys.ts';
import { mutateQuietly, orNotFound } from '../../platform/mutate.ts';
import { isValidCidrOrAddress } from '../../platform/network.ts';
import { assertReference } from '../../platform/references.ts';
import { expandScopes, PERSONAL_SCOPES } from '../../platform/scopes.ts';
import type { NewRow } from '../../platform/tenant-table.ts';
import type {
  ApiKeyCreateBody,
  ApiKeyCreatedRecord,
  ApiKeyListParams,
  ApiKeyRecord,
  MeRecord,
  RotatedKeyRecord,
} from './auth.schemas.ts';
import { isActiveMemberPerson, personWithRole } from '../members/index.ts';
import * as repo from './auth.repository.ts';

type Grant = Pick<NewRow<'api_keys'>, 'kind' | 'scopes' | 'person_id'>;

/** A personal key acts as one active member and always carries read+write; the caller chooses neither scopes nor admin. */
async function personalGrant(ctx: Ctx, body: ApiKeyCreateBody): Promise<Grant> {
  if (body.scopes !== undefined) {
    throw domainValidation('SCOPES_NOT_ALLOWED', 'Personal keys always have read and write; send no scopes', {
      field: 'scopes',
    });
  }
  const personId = body.person_id === undefined ? ctx.key.personId : body.person_id;
  if (personId === null || !(await isActiveMemberPerson(ctx, personId))) {
    throw invalidReference('person', 'person_id', personId);
  }
  return { kind: 'personal', scopes: [...PERSONAL_SCOPES], person_id: personId };
}

/** Integration keys are attributed to a person (by default the creator's) but act company-wide. */
async function integrationGrant(ctx: Ctx, body: ApiKeyCreateBody): Promise<Grant> {
  if (body.person_id !== undefined) await assertReference(ctx, 'people', 'person', 'person_id', body.person_id);
  const personId = body.person_id === undefined ? ctx.key.personId : body.person_id;
  return { kind: 'integration', scopes: expandScopes(body.scopes ?? ['read']), person_id: personId };
}

function checkExpiry(expiresAt: string | null | undefined): string | null {
  if (expiresAt == null) return null;
  const at = Date.parse(expiresAt);
  if (!(at > Date.now()))
    throw domainValidation('EXPIRES_AT_NOT_IN_FUTURE', 'expires_at must be in the future', {
      field: 'expires_at',
      value: expiresAt,
    });
  return new Date(at).toISOString();
}

function checkAllowlist(list: string[] | null | undefined): string[] | null {
  if (list == null) return null;
  const invalid = list.filter((entry) => !isValidCidrOrAddress(entry));
  if (invalid.length)
    throw domainValidation(
      'INVALID_IP_ALLOWLIST',
      `ip_allowlist has entries that are not IP addresses or CIDR ranges: ${invalid.join(', ')}`,
      { field: 'ip_allowlist', invalid },
    );
  return list;
}

export const listKeys = (ctx: Ctx, params: ApiKeyListParams) => repo.listKeys(ctx, params);

async function getKey(ctx: Ctx, id: number): Promise<ApiKeyRecord> {
  return orNotFound(await repo.findKey(ctx, id), 'API key');
}

export async function createKey(ctx: Ctx, body: ApiKeyCreateBody): Promise<ApiKeyCreatedRecord> {
  const expiresAt = checkExpiry(body.expires_at);
  const allowlist = checkAllowlist(body.ip_allowlist);
  return inTransaction(ctx, async (tx) => {
    const grant = body.kind === 'personal' ? await personalGrant(tx, body) : await integrationGrant(tx, body);
    const secret = generateKey();
    const id = await repo.apiKeys.insert(tx, {
      ...grant,
      name: body.name,
      expires_at: expiresAt,
      ip_allowlist: allowlist,
      key_prefix: secret.prefix,
      key_hash: secret.hash,
    });
    return { ...(await getKey(tx, id)), full_key: secret.fullKey };
  });
}

const notRotatable = (id: number, why: string) =>
  new AppError('KEY_NOT_ROTATABLE', `API key ${id} cannot be rotated: ${why}`, { key_id: id });

/** Only a working key rotates: not revoked, not expired, and not already replaced by an earlier rotation. */
export async function rotateKey(ctx: Ctx, id: number): Promise<RotatedKeyRecord> {
  return inTransaction(ctx, async (tx) => {
    const old = orNotFound(await repo.lockKey(tx, id), 'API key');
    if (!old.is_active) throw notRotatable(id, 'it has been revoked');
    if (old.rotated_to_id !== null || old.grace_expires_at !== null)
      throw notRotatable(id, `it was already rotated (to key ${old.rotated_to_id})`);
    if (old.expires_at && Date.parse(old.expires_at) <= Date.now()) throw notRotatable(id, 'it has expired');
    const secret = generateKey();
    const newId = await repo.apiKeys.insert(tx, {
      name: old.name,
      kind: old.kind,
      scopes: old.scopes,
      person_id: old.person_id,
      expires_at: old.expires_at,
      ip_allowlist: old.ip_allowlist,
      key_prefix: secret.prefix,
      key_hash: secret.hash,
    });
    const graceEnds = await repo.markRotated(tx, id, newId);
    return {
      new_key: {
        id: newId,
        name: old.name,
        key_prefix: secret.prefix,
        full_key: secret.fullKey,
        kind: old.kind,
        person_id: old.person_id,
        scopes: old.scopes,
      },
      old_key_id: id,
      old_key_grace_expires_at: graceEnds,
    };
  });
}

/** Revocation is permanent; a key already revoked is gone as far as DELETE is concerned (404). */
export const revokeKey = (ctx: Ctx, id: number) =>
  mutateQuietly(ctx, { what: 'API key', lock: repo.lockKey }, id, async (tx, key) => {
    if (!key.is_active) throw notFound('API key');
    await repo.revokeKey(tx, id);
  });

export async function me(ctx: Ctx): Promise<MeRecord> {
  const key = ctx.key.id === null ? null : orNotFound(await repo.findKeyIdentity(ctx, ctx.key.id), 'API key');
  const person = ctx.key.personId === null ? null : ((await personWithRole(ctx, ctx.key.personId)) ?? null);
  const company = { id: ctx.company.id, name: ctx.company.name, timezone: ctx.company.timezone };
  return { company, credential: ctx.key.kind === 'session' ? 'session' : 'api_key', key, person };
}
