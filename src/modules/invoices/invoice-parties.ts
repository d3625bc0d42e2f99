import type { Ctx } from '../../platform/context.ts';
import { invalidReference } from '../../platform/errors.ts';
import { clientSnapshot, type ClientSnapshot } from '../clients/index.ts';
import { contractDefaults, liveContractDefaults, type ContractInvoiceDefaults } from '../contracts/index.ts';
import { sellerSnapshot, type SellerSnapshot } from '../invoice-sellers/index.ts';
import { personContactLine } from '../members/index.ts';

/**
 * The parties an invoice names, read from their live records and copied onto the invoice (at create and
 * again at finalization), so later renames never change an issued invoice. Each owner answers its snapshot.
 */
export { clientSnapshot, sellerSnapshot, type ClientSnapshot, type SellerSnapshot };
export type ContractDefaults = ContractInvoiceDefaults;

export const NO_SELLER: SellerSnapshot = {
  seller_name: null,
  seller_reg_code: null,
  seller_vat_code: null,
  seller_address: null,
  seller_bank: null,
  seller_iban: null,
  seller_endpoint_id: null,
  seller_endpoint_scheme: null,
  seller_phone: null,
  seller_city: null,
  seller_zip: null,
};

/** The acting key's person as the seller's contact on the invoice ("Name Surname <e-mail>"). */
export async function sellerContact(ctx: Ctx): Promise<string | null> {
  const personId = ctx.actor.personId ?? ctx.key.personId;
  return personId === null ? null : personContactLine(ctx, personId);
}

/** The live contract of that client (INVALID_CONTRACT otherwise) and its settings. */
export async function contractOf(ctx: Ctx, contractId: number, clientId: number): Promise<ContractDefaults> {
  const contract = await liveContractDefaults(ctx, contractId);
  if (!contract || contract.client_id !== clientId) throw invalidReference('contract', 'contract_id', contractId);
  return contract.settings;
}

/** The settings of an invoice's contract for finalization (the contract may have been deleted since). */
export async function contractSettings(ctx: Ctx, contractId: number | null): Promise<ContractDefaults> {
  return contractId === null ? {} : contractDefaults(ctx, contractId);
}
