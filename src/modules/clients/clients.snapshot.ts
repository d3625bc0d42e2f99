import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { primaryContactLine } from '../contacts/index.ts';

/** The client as an invoice copies it (at create and again at finalization), so later renames never change it. */
export interface ClientSnapshot {
  client_name: string;
  client_reg_code: string | null;
  client_vat_code: string | null;
  client_address: string | null;
  client_contact: string | null;
  client_endpoint_id: string | null;
  client_endpoint_scheme: string | null;
}

/** The live client with its primary contact (else its first one); undefined when absent or deleted. */
export async function clientSnapshot(ctx: Ctx, clientId: number): Promise<ClientSnapshot | undefined> {
  return scoped
    .select(ctx, 'clients', 'c')
    .where('c.id', '=', clientId)
    .where('c.deleted_at', 'is', null)
    .select([
      'c.name as client_name',
      'c.reg_code as client_reg_code',
      'c.vat_code as client_vat_code',
      sql<string | null>`nullif(concat_ws(', ', nullif(c.address_street, ''), nullif(c.address_zip, ''),
        nullif(c.address_city, ''), nullif(c.address_state, ''), upper(nullif(c.address_country_code, ''))), '')`.as(
        'client_address',
      ),
      primaryContactLine().as('client_contact'),
      'c.endpoint_id as client_endpoint_id',
      'c.endpoint_scheme as client_endpoint_scheme',
    ])
    .executeTakeFirst();
}
