import type { ProjectTypeListParams } from './project-types.schemas.ts';
import type { Ctx } from '../../platform/context.ts';
import { orNotFound } from '../../platform/mutate.ts';
import type { ProjectTypeRecord } from './project-types.schemas.ts';
import * as repo from './project-types.repository.ts';

export const listProjectTypes = (ctx: Ctx, params: ProjectTypeListParams) => repo.listProjectTypes(ctx, params);

export async function getProjectType(ctx: Ctx, id: number): Promise<ProjectTypeRecord> {
  return orNotFound(await repo.findProjectType(ctx, id), 'Project type');
}
