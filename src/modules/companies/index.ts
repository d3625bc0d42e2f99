// Platform administration (operator API, CLI, demo provisioning): companies and their members, with no tenant
// context. Not a v3 resource module, so it declares nothing to the registry; this is its public face.
export {
  addMember,
  assertTimezone,
  createCompany,
  getCompany,
  initialsOf,
  updateCompany,
} from './companies.service.ts';
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
