// The unbilled-work rollup's check from the shell (docs/decisions/0070): catches a company's rollup up, then
// recomputes it from the entries and compares. Exit code 0 when they agree, 1 with the differences otherwise.
import { companyId, type Command, type Values } from './cli-command.ts';
import { AppError } from './platform/errors.ts';
import { systemActor } from './platform/system-actor.ts';
import { checkUnbilledWork } from './modules/billing/index.ts';

export const BILLING_USAGE = `  unbilled-work check --company <company uuid>
                 recompute the company's unbilled-work rollup from its entries and compare (exit 1 on a difference)`;

export const BILLING_COMMANDS: Record<string, Command> = {
  'unbilled-work check': {
    options: { company: { type: 'string' } },
    required: ['company'],
    input: (values: Values) => ({ company: companyId(values, 'company') }),
    async run(db, input: { company: string }) {
      const actor = await systemActor(db, input.company);
      if (!actor) throw new AppError('NOT_FOUND', `No company ${input.company}`);
      const result = await checkUnbilledWork({ ...actor, db, requestId: 'cli-unbilled-work-check' });
      if (result.differences.length > 0 || result.failed.length > 0)
        throw new Error(
          `the unbilled-work rollup differs from its entries: ${JSON.stringify({ differences: result.differences, failed_clients: result.failed })}`,
        );
      return { json: result, text: 'The unbilled-work rollup matches the entries: no difference.' };
    },
  },
};
