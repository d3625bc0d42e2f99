/** A few prompts for common work; each names the tools to use, so an assistant starts from the right calls. */
export const PROMPTS = [
  {
    name: 'log-time-today',
    description: 'Log time worked today on a task',
    arguments: [
      { name: 'task', description: 'Task id or words from its title', required: true },
      { name: 'duration', description: 'How long, e.g. "1h30m" or "90 minutes"', required: true },
      { name: 'description', description: 'What was done', required: false },
    ],
  },
  {
    name: 'unbilled-this-month',
    description: 'What work is not billed yet this month, by client',
    arguments: [],
  },
];

const TEXT: Record<string, (args: Record<string, string>) => string> = {
  'log-time-today': (a) =>
    `Log ${a.duration} worked today on the task "${a.task}"${a.description ? ` ("${a.description}")` : ''}. ` +
    'If the task is not an id, find it with listTasks (q). Find your person id with getAuthMe. Then call ' +
    'createTimeEntry with task_id, person_id, start (today, in the company time zone, as an ISO timestamp) and ' +
    'duration in seconds. Report the created entry.',
  'unbilled-this-month': () =>
    'Find the work not billed yet this month: call getMissedBilling for the current month (date_from and ' +
    'date_to), then summarise by client the unbilled hours and amounts, largest first.',
};

export function promptMessages(name: string, args: Record<string, string>) {
  const render = TEXT[name];
  if (!render) throw new Error(`Unknown prompt ${name}`);
  const prompt = PROMPTS.find((p) => p.name === name)!;
  const missing = prompt.arguments.find((a) => a.required && !args[a.name]);
  if (missing) throw new Error(`Prompt ${name} needs the argument ${missing.name}`);
  return {
    description: prompt.description,
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text: render(args) } }],
  };
}
