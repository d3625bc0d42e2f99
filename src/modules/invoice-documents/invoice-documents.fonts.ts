// WinAnsi as pdfkit's built-in fonts encode it: Latin-1 plus these; anything else would print as garbage.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/** Text the built-in fonts can draw: other characters become '?', control characters (bar newlines) vanish. */
export function printable(text: string | null | undefined): string {
  let out = '';
  for (const char of (text ?? '').normalize('NFC')) {
    const code = char.codePointAt(0)!;
    if (char === '\n' || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char))
      out += char;
    else if (code >= 0x20 && code !== 0x7f && (code < 0x80 || code > 0x9f)) out += '?';
  }
  return out;
}
