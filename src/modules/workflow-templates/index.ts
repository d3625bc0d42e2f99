import { defineModule } from '../../platform/modules.ts';
import type { FastifyInstance } from 'fastify';
import workflowTemplateRoutes from './workflow-templates.routes.ts';
import projectWorkflowRoutes from './project-workflows.routes.ts';
import { JOB_TYPES, workflowJob } from './workflows.jobs.ts';

// Both engines (workflow templates, project workflows) live here: one model, two resources.
export default defineModule({
  name: 'workflow-templates',
  tables: ['workflow_applications', 'workflow_instances', 'workflow_master_tasks', 'workflow_templates'],
  entity: 'workflow_template',
  routes: async (app: FastifyInstance) => {
    await app.register(workflowTemplateRoutes);
    await app.register(projectWorkflowRoutes);
  },
  jobs: {
    [JOB_TYPES.workflow_template.apply]: workflowJob('workflow_template', 'apply'),
    [JOB_TYPES.workflow_template.push]: workflowJob('workflow_template', 'push'),
    [JOB_TYPES.project_workflow.apply]: workflowJob('project_workflow', 'apply'),
    [JOB_TYPES.project_workflow.push]: workflowJob('project_workflow', 'push'),
  },
});

// A task's workflow origin, for the modules that list tasks by it (the client's workflow tasks).
export { madeFromWorkflow, workflowOrigin } from './instances.sql.ts';
