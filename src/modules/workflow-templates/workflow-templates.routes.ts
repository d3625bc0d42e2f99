import { WorkflowTemplate, WorkflowTemplateCreate, WorkflowTemplateUpdate } from './workflows.schemas.ts';
import { workflowRoutes } from './workflows.routes.ts';

/** /workflow-templates: master tasks applied straight to clients (docs/decisions/0033). */
export default workflowRoutes({
  kind: 'workflow_template',
  path: '/workflow-templates',
  param: 'workflow_template_id',
  tag: 'Workflow templates',
  name: 'WorkflowTemplate',
  noun: 'workflow template',
  record: WorkflowTemplate,
  create: WorkflowTemplateCreate,
  update: WorkflowTemplateUpdate,
  createErrors: [],
});
