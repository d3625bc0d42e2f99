import { ProjectWorkflow, ProjectWorkflowCreate, ProjectWorkflowUpdate } from './workflows.schemas.ts';
import { workflowRoutes } from './workflows.routes.ts';

/** /project-workflows: each apply makes a project for the client holding the tasks (docs/decisions/0033). */
export default workflowRoutes({
  kind: 'project_workflow',
  path: '/project-workflows',
  param: 'project_workflow_id',
  tag: 'Project workflows',
  name: 'ProjectWorkflow',
  noun: 'project workflow',
  record: ProjectWorkflow,
  create: ProjectWorkflowCreate,
  update: ProjectWorkflowUpdate,
  createErrors: ['INVALID_PROJECT_TYPE'],
});
