import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../platform/context.ts';
import { defineModule } from '../../platform/modules.ts';
import contractRowRoutes from './contract-rows.routes.ts';
import { allRows } from './contract-rows.repository.ts';
import * as repo from './contracts.repository.ts';
import contractRoutes from './contracts.routes.ts';
import type { ContractRecord } from './contracts.schemas.ts';

const HOUR = 60 * 60 * 1000;

export type { ContractRecord, ContractRowRecord, ContractStatus } from './contracts.schemas.ts';
export type { ContractSettingsValues } from './contracts.settings.ts';
export { INVOICE_PERIODS } from './contracts.schemas.ts';
// For invoice mail: whom a contract's invoices go to; for invoices: the defaults they take from their contract.
export {
  contractDefaults,
  contractRecipients,
  liveContractDefaults,
  type ContractInvoiceDefaults,
} from './contracts.repository.ts';
/** For the billing engine: a contract row's own price in effect on a day, and the days it can change. */
export { rowPriceInEffectSql, rowPriceStartsSql } from './contract-rows.repository.ts';
// For the reports' bi_state: whether any row of a live contract is priced.
export { anyContractPriceSql } from './contract-rows.repository.ts';

/**
 * For the billing engine: a live contract of the caller's company as the API answers it (settings complete,
 * up to 200 rows inlined), with `rows` replaced by every row when `allRowsToo` is set. undefined when absent.
 */
export async function findContract(ctx: Ctx, id: number, allRowsToo = false): Promise<ContractRecord | undefined> {
  const contract = await repo.findContract(ctx, id);
  if (!contract || !allRowsToo || !contract.rows_truncated) return contract;
  return { ...contract, rows: await allRows(ctx, id), rows_truncated: false };
}

async function routes(app: FastifyInstance) {
  await app.register(contractRoutes);
  await app.register(contractRowRoutes);
}

export default defineModule({
  name: 'contracts',
  tables: ['contract_row_prices', 'contract_rows', 'contracts'],
  entity: 'contract',
  routes,
  // Contracts fire no webhook events (the spec's event entities do not include them).
  // An active contract whose last day has come is finished, in each company's own time zone.
  periodic: [{ name: 'contract-ends', everyMs: HOUR, run: (db) => repo.finishEndedContracts(db) }],
});
