// `svc completion bash|zsh` prints a script that asks `svc __complete <words>` for candidates, which reads the
// command tree built from the cached OpenAPI document: completions follow the service without a new script.
import type { Command } from 'commander';
import { usage } from './errors.ts';

const BASH = `# svc completion for bash: eval "$(svc completion bash)"
_svc_complete() {
  local IFS=$'\\n'
  local words=("\${COMP_WORDS[@]:1:COMP_CWORD-1}")
  COMPREPLY=($(compgen -W "$(svc __complete "\${words[@]}" 2>/dev/null)" -- "\${COMP_WORDS[COMP_CWORD]}"))
}
complete -o default -F _svc_complete svc
`;

const ZSH = `#compdef svc
# svc completion for zsh: eval "$(svc completion zsh)"
_svc() {
  local -a candidates
  candidates=("\${(@f)$(svc __complete "\${(@)words[2,CURRENT-1]}" 2>/dev/null)}")
  compadd -a candidates
}
compdef _svc svc
`;

/** Subcommands and long options of the deepest command the words name. */
export function candidates(program: Command, words: string[]): string[] {
  let command = program;
  for (const word of words) {
    if (word.startsWith('-')) continue;
    const sub = command.commands.find((c) => c.name() === word);
    if (sub) command = sub;
  }
  const options = [...command.options, ...(command === program ? [] : program.options)];
  return [
    ...command.commands.map((c) => c.name()).filter((name) => !name.startsWith('__')),
    ...options.map((o) => o.long).filter((long): long is string => Boolean(long)),
  ];
}

export function addCompletionCommands(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script: eval "$(svc completion bash)"')
    .argument('<shell>', 'bash or zsh')
    .action((shell: string) => {
      if (shell !== 'bash' && shell !== 'zsh') throw usage(`completion: shell must be bash or zsh, got "${shell}"`);
      process.stdout.write(shell === 'bash' ? BASH : ZSH);
    });
}
