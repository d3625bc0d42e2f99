import type { CompanyInfo } from '../../platform/context.ts';

/** The plans a company can hold, lowest first; 'enterprise' is named ahead of its arrival in companies.plan. */
export type Plan = CompanyInfo['plan'] | 'enterprise';

export interface AppEntry {
  /** The companies.features flag this app switches, and the key other endpoints check. */
  key: string;
  name: string;
  description: string;
  /** Plans that include the app; activating it on another plan answers 403 PLAN_UPGRADE_REQUIRED. */
  plans: readonly Plan[];
}

/**
 * The optional features a company can switch on. Order is the seeding order (and so the ids of a new
 * company's apps); migration 0096 backfills the same keys for companies that existed before it. A new
 * app needs a line here and a migration that backfills its row.
 */
export const APP_CATALOGUE: readonly AppEntry[] = [
  {
    key: 'billing',
    name: 'Billing',
    description: 'Invoicing from tracked work: missed billing, billing settings and the billing engine.',
    plans: ['pro', 'enterprise'],
  },
  {
    key: 'analytics',
    name: 'Business intelligence',
    description: 'Revenue, cost and hours reports over time (KPI summary and BI series and breakdowns).',
    plans: ['pro', 'enterprise'],
  },
  {
    key: 'drive',
    name: 'Document drive',
    description: 'A connected drive for documents, with a folder per client (POST /clients/{id}/documents-folder).',
    plans: ['pro', 'enterprise'],
  },
  {
    key: 'sso',
    name: 'Single sign-on',
    description: 'Members sign in to the web application through the company identity provider (SAML).',
    plans: ['enterprise'],
  },
];

export const APP_KEYS = APP_CATALOGUE.map((app) => app.key);

export function appEntry(key: string): AppEntry {
  const entry = APP_CATALOGUE.find((app) => app.key === key);
  if (!entry) throw new Error(`company app ${key} is not in the catalogue`);
  return entry;
}
