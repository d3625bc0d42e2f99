// Reading a secret without putting it on the command line: a terminal gets an unechoed prompt, a pipe is read whole.

/** The first line of standard input; at a terminal, typed after a prompt on stderr without being echoed. */
export async function readStdinKey(): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    let text = '';
    for await (const chunk of stdin) text += String(chunk);
    return text.split(/\r?\n/)[0] ?? '';
  }
  process.stderr.write('API key: ');
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  let key = '';
  try {
    for await (const chunk of stdin) {
      for (const ch of String(chunk)) {
        if (ch === '\r' || ch === '\n') return key;
        if (ch === '\u0003' || ch === '\u0004') return '';
        key = ch === '\u007f' || ch === '\b' ? key.slice(0, -1) : key + ch;
      }
    }
    return key;
  } finally {
    stdin.setRawMode(false);
    process.stderr.write('\n');
  }
}
