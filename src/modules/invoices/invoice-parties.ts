import { sql } from 'kysely';
import type { Ctx } from '../../platform/context.ts';
import { invalidReference } from '../../platform/errors.ts';
import { scoped } from '../../platform/tenant-table.ts';
import { firstRecord } from '../../platform/sql.ts';

/**
 * The parties an invoice names, read from their live records and copied onto the invoice (at create and
 * again at finalization), so later renames never change an issued invoice.
 */
export interface ClientSnapshot {
  client_name: string;
  client_reg_code: string | null;
  client_vat_code: string | null;
  client_address: string | null;
  client_contact: string | null;
}
export interface SellerSnapshot {
  seller_name: string | null;
  seller_reg_code: string | null;
  seller_vat_code: string | null;
  seller_address: string | null;
  seller_bank: string | null;
  seller_iban: string | null;
}

/** "Name Surname <e-mail>", leaving out whatever part is missing. */
const contactText = sql<string | null>`nullif(trim(concat_ws(' ', p.name, p.surname,
  case when p.email is not null and p.email <> '' then '<' || p.email || '>' end)), '')`;

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
      sql<string | null>`(select ${contactText} from contacts p where p.company_id = c.company_id
        and p.client_id = c.id and p.deleted_at is null order by p.is_primary desc, p.id limit 1)`.as('client_contact'),
    ])
    .executeTakeFirst();
}

export const NO_SELLER: SellerSnapshot = {
  seller_name: null,
  seller_reg_code: null,
  seller_vat_code: null,
  seller_address: null,
  seller_bank: null,
  seller_iban: null,
};

/** The company's seller (archived ones only when `activeOnly` is false), or undefined. */
export async function sellerSnapshot(ctx: Ctx, sellerId: number, activeOnly: boolean) {
  let query = scoped.select(ctx, 'invoice_sellers', 's').where('s.id', '=', sellerId);
  if (activeOnly) query = query.where('s.status', '=', 'active');
  return firstRecord<SellerSnapshot>(
    query.select([
      's.name as seller_name',
      's.company_number as seller_reg_code',
      's.vat_number as seller_vat_code',
      's.address as seller_address',
      's.bank_1 as seller_bank',
      's.iban_1 as seller_iban',
    ]),
  );
}

/** The acting key's person as the seller's contact on the invoice ("Name Surname <e-mail>"). */
export async function sellerContact(ctx: Ctx): Promise<string | null> {
  const personId = ctx.actor.personId ?? ctx.key.personId;
  if (personId === null) return null;
  const row = await scoped
    .select(ctx, 'people', 'p')
    .where('p.id', '=', personId)
    .select(contactText.as('contact'))
    .executeTakeFirst();
  return row?.contact ?? null;
}

/** ContractSettings the invoice takes its defaults from (all optional, free-form in storage). */
export interface ContractDefaults {
  currency?: unknown;
  invoice_due_date_period?: unknown;
  invoice_number_format?: unknown;
  locale_code?: unknown;
  reference_number?: unknown;
}

/** The live contract of that client (INVALID_CONTRACT otherwise) and its settings. */
export async function contractOf(ctx: Ctx, contractId: number, clientId: number): Promise<ContractDefaults> {
  const row = await scoped
    .select(ctx, 'contracts', 'k')
    .where('k.id', '=', contractId)
    .where('k.deleted_at', 'is', null)
    .select(['k.client_id', 'k.settings'])
    .executeTakeFirst();
  if (!row || row.client_id !== clientId) throw invalidReference('contract', 'contract_id', contractId);
  return (row.settings ?? {}) as ContractDefaults;
}

/** The settings of an invoice's contract for finalization (the contract may have been deleted since). */
export async function contractSettings(ctx: Ctx, contractId: number | null): Promise<ContractDefaults> {
  if (contractId === null) return {};
  const row = await scoped
    .select(ctx, 'contracts', 'k')
    .where('k.id', '=', contractId)
    .select('k.settings')
    .executeTakeFirst();
  return (row?.settings ?? {}) as ContractDefaults;
}
