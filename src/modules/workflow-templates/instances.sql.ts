import { sql, type RawBuilder } from 'kysely';

// What other modules may know of a task's workflow origin (its instance row), as SQL on a task aliased `t`;
// the instance table stays this module's.

/** Whether the task was made from a workflow template (of this one, when given). */
export function madeFromWorkflow(templateId?: number): RawBuilder<boolean> {
  const ofTemplate = templateId === undefined ? sql`` : sql` and wi.template_id = ${templateId}`;
  return sql<boolean>`exists (select 1 from workflow_instances wi
    where wi.company_id = t.company_id and wi.task_id = t.id${ofTemplate})`;
}

/** The template, or the master task, the task was made from; null for a task made otherwise. */
export function workflowOrigin(column: 'template_id' | 'master_task_id'): RawBuilder<number | null> {
  return sql<number | null>`(select ${sql.ref(`wi.${column}`)} from workflow_instances wi
    where wi.company_id = t.company_id and wi.task_id = t.id)`;
}
