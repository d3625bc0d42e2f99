import { Type, type Static } from 'typebox';
import { listQuery } from '../../platform/lists.ts';

export const CompanyApp = Type.Object(
  {
    id: Type.Integer({ description: "The app's id in this company" }),
    key: Type.String({ description: 'Stable key; also the feature flag other endpoints check' }),
    name: Type.String(),
    description: Type.String(),
    active: Type.Boolean({ description: 'Switched on for the company' }),
    included_in_plan: Type.Boolean({
      description: "The company's plan includes the app (otherwise activation answers PLAN_UPGRADE_REQUIRED)",
    }),
  },
  { title: 'CompanyApp' },
);
export type CompanyAppRecord = Static<typeof CompanyApp>;

export const COMPANY_APP_LIST_OPTIONS = { sortable: { id: 'a.id' }, defaultSort: 'id', cursor: false };
export const CompanyAppListQuery = listQuery({}, COMPANY_APP_LIST_OPTIONS);
export type CompanyAppListParams = Static<typeof CompanyAppListQuery>;
