import { collectModules, type Registry, type ServiceModule } from '../platform/modules.ts';
import legacyWebhooks from './legacy-webhooks/index.ts';
import companies from './companies/index.ts';
import operator from './operator/index.ts';
import activities from './activities/index.ts';
import agreements from './agreements/index.ts';
import budgets from './budgets/index.ts';
import monitors from './monitors/index.ts';
import flextime from './flextime/index.ts';
import reclaims from './reclaims/index.ts';
import integrations from './integrations/index.ts';
import reports from './reports/index.ts';
import billing from './billing/index.ts';
import auth from './auth/index.ts';
import mcp from './mcp/index.ts';
import attachments from './attachments/index.ts';
import notes from './notes/index.ts';
import customFields from './custom-fields/index.ts';
import documents from './documents/index.ts';
import suppliers from './suppliers/index.ts';
import productFields from './product-fields/index.ts';
import contentTemplates from './content-templates/index.ts';
import taskAutomations from './task-automations/index.ts';
import delegations from './delegations/index.ts';
import workflowTemplates from './workflow-templates/index.ts';
import clientWorkflow from './client-workflow/index.ts';
import companyApps from './company-apps/index.ts';
import billingSettings from './billing-settings/index.ts';
import calendar from './calendar/index.ts';
import clientGroups from './client-groups/index.ts';
import clientMembers from './client-members/index.ts';
import clients from './clients/index.ts';
import contacts from './contacts/index.ts';
import contracts from './contracts/index.ts';
import events from './events/index.ts';
import invoiceDocuments from './invoice-documents/index.ts';
import invoiceSellers from './invoice-sellers/index.ts';
import invoices from './invoices/index.ts';
import jobs from './jobs/index.ts';
import members from './members/index.ts';
import products from './products/index.ts';
import projectTypes from './project-types/index.ts';
import projects from './projects/index.ts';
import roles from './roles/index.ts';
import search from './search/index.ts';
import sessions from './sessions/index.ts';
import invitations from './invitations/index.ts';
import taskRelations from './task-relations/index.ts';
import tasks from './tasks/index.ts';
import taxes from './taxes/index.ts';
import teams from './teams/index.ts';
import timeEntries from './time-entries/index.ts';
import topics from './topics/index.ts';
import webhooks from './webhooks/index.ts';
import workflowRoles from './workflow-roles/index.ts';

/** Every v3 resource module: adding a resource adds its line here. */
export const MODULES: readonly ServiceModule[] = [
  activities,
  agreements,
  budgets,
  monitors,
  flextime,
  reclaims,
  integrations,
  reports,
  billing,
  auth,
  billingSettings,
  calendar,
  clientGroups,
  clientMembers,
  clients,
  contacts,
  contracts,
  events,
  invoiceDocuments,
  invoices,
  invoiceSellers,
  jobs,
  members,
  products,
  projects,
  projectTypes,
  roles,
  search,
  sessions,
  invitations,
  taskRelations,
  tasks,
  taxes,
  teams,
  timeEntries,
  topics,
  webhooks,
  workflowRoles,
  mcp,
  attachments,
  notes,
  customFields,
  documents,
  suppliers,
  productFields,
  contentTemplates,
  taskAutomations,
  delegations,
  workflowTemplates,
  clientWorkflow,
  companyApps,
  companies,
  operator,
  legacyWebhooks,
];

let registry: Registry | undefined;

/** What all modules bring (routes, events, samples, jobs, periodic work, seeders); the server, worker and CLI all start here. */
export function loadModules(): Registry {
  registry ??= collectModules(MODULES);
  return registry;
}
