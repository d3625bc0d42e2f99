// Workflow templates for the task-list benchmark with template rows in the table (`--template-rows=N`).
import type { SeededCompany } from './plan.ts';
import type { Statement } from './seed-sql.ts';

/** Master rows per seeded workflow template (the 30-task template of the apply benchmark). */
export const MASTERS_PER_TEMPLATE = 30;

/**
 * Workflow templates for the task-list benchmark with template rows in the table (`--template-rows=N`):
 * N × the company's task rows as master tasks, 30 per template, each template with its template (plan)
 * client, as POST /workflow-templates and its /tasks make them. Ids come from the identities (run after
 * they were moved past the explicit ranges), templates are found again by their zero-padded names.
 */
export function templateStatements(c: SeededCompany, multiplier: number): Statement[] {
  const rows = Math.round(multiplier * c.tasks);
  if (rows <= 0) return [];
  const templates = Math.ceil(rows / MASTERS_PER_TEMPLATE);
  const name = (n: string) => `'Bench template ' || lpad((${n})::text, 7, '0')`;
  return [
    {
      table: 'clients',
      text: `INSERT INTO clients (company_id, name, type, status)
      SELECT $1, ${name('k + 1')}, 'plan', 'active' FROM generate_series(0, ${templates - 1}) AS k`,
      values: [c.id],
    },
    {
      table: 'workflow_templates',
      text: `INSERT INTO workflow_templates (company_id, kind, name, plan_client_id)
      SELECT $1, 'workflow_template', pc.name, pc.id FROM clients pc
      WHERE pc.company_id = $1 AND pc.type = 'plan' AND pc.deleted_at IS NULL AND pc.name LIKE 'Bench template %'`,
      values: [c.id],
    },
    {
      table: 'tasks',
      text: `INSERT INTO tasks (company_id, client_id, title, status, type, template_kind)
      SELECT $1, w.plan_client_id, 'Master step ' || (i % ${MASTERS_PER_TEMPLATE} + 1), 'new', 'task', 'workflow_template'
      FROM generate_series(0, ${rows - 1}) AS i
      JOIN workflow_templates w ON w.company_id = $1 AND w.name = ${name(`i / ${MASTERS_PER_TEMPLATE} + 1`)}`,
      values: [c.id],
    },
    {
      table: 'workflow_master_tasks',
      text: `INSERT INTO workflow_master_tasks (company_id, task_id, template_id, due_in_days)
      SELECT $1, t.id, w.id, 7 FROM tasks t
      JOIN workflow_templates w ON w.company_id = t.company_id AND w.plan_client_id = t.client_id
      WHERE t.company_id = $1 AND t.template_kind = 'workflow_template' AND w.name LIKE 'Bench template %'`,
      values: [c.id],
    },
  ];
}
