import { defineModule } from '../../platform/modules.ts';

// Companies and their first members, with no tenant context: what the operator API, the CLI and demo provisioning use.
export default defineModule({ name: 'companies', tables: ['companies'] });

// For products, budgets and reports: the company's currency and app switches, read in the caller's SQL.
export { companyCurrency, companyCurrencySql, companyFeatureSql, companyTodaySql } from './companies.facts.ts';
export { addMember, assertTimezone, createCompany, getCompany, updateCompany } from './companies.service.ts';
export {
  Company,
  CompanyCreate,
  CompanyCreated,
  CompanyUpdate,
  MemberAdd,
  type CompanyCreateBody,
  type CompanyCreatedRecord,
  type CompanyUpdateBody,
  type MemberAddBody,
} from './companies.schemas.ts';

// For billing settings and company apps: the tenant's own row is written by its owner.
export { activateFeature, updateBillingFields } from './companies.tenant.ts';
