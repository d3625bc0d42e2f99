import type { Ctx } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { companySeeders } from '../companies/companies.service.ts';
import { DEFAULT_PROJECT_TYPES, type ProjectTypeRecord } from './project-types.schemas.ts';
import * as repo from './project-types.repository.ts';

// Runs inside createCompany's transaction: a new company can create projects at once.
companySeeders.push((db, companyId) => repo.insertDefaults(db, companyId, DEFAULT_PROJECT_TYPES));

export const listProjectTypes = (ctx: Ctx, params: object) => repo.listProjectTypes(ctx, params);

export async function getProjectType(ctx: Ctx, id: number): Promise<ProjectTypeRecord> {
  const type = await repo.findProjectType(ctx, id);
  if (!type) throw notFound('Project type');
  return type;
}
