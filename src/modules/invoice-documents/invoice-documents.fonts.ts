import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * The PDF's fonts: Noto Sans for Latin, Greek and Cyrillic, then Noto Sans CJK in its Simplified Chinese
 * subset (Han and kana) and its Korean one (Hangul), each shipped by an npm package (decision 0065). A text
 * is drawn in runs, each in the first face that has its glyphs. The CJK faces are 8 MB each: parsed on the
 * first text that needs them, then kept for the process, as the Latin one is.
 */
export type Face = 'latin' | 'han' | 'hangul';
export type Weight = 'regular' | 'bold';

const FACES: readonly Face[] = ['latin', 'han', 'hangul'];

const FILES: Record<Face, { pkg: string; regular: string; bold: string }> = {
  latin: { pkg: '@embedpdf/fonts-latin', regular: 'NotoSans-Regular.ttf', bold: 'NotoSans-Bold.ttf' },
  han: { pkg: '@embedpdf/fonts-sc', regular: 'NotoSansHans-Regular.otf', bold: 'NotoSansHans-Bold.otf' },
  hangul: { pkg: '@embedpdf/fonts-kr', regular: 'NotoSansKR-Regular.otf', bold: 'NotoSansKR-Bold.otf' },
};

/** What we use of a fontkit font; pdfkit takes the object itself (it has fontkit's whole interface). */
export interface Font {
  hasGlyphForCodePoint(code: number): boolean;
  /** Ascender in units of 1/1000 em (all three faces have 1000 units per em). */
  ascent: number;
}

const require = createRequire(import.meta.url);
const loaded = new Map<string, Font>();
let fontkit: { create(data: Buffer): unknown } | undefined;

/** The parsed font of a face and weight (pdfkit takes fontkit's object as it is, so it is parsed once). */
export function fontOf(face: Face, weight: Weight): Font {
  const key = `${face}/${weight}`;
  let font = loaded.get(key);
  if (!font) {
    fontkit ??= require('fontkit') as { create(data: Buffer): unknown };
    // The packages export only their index (dist/), with the font files in fonts/ beside it.
    const file = new URL(`../fonts/${FILES[face][weight]}`, pathToFileURL(require.resolve(FILES[face].pkg)));
    font = fontkit.create(readFileSync(file)) as Font;
    loaded.set(key, font);
  }
  return font;
}

/** The first face with a glyph for the character, if any has one. */
function faceOf(code: number): Face | undefined {
  return FACES.find((face) => fontOf(face, 'regular').hasGlyphForCodePoint(code));
}

// Format characters (zero-width joiners, direction marks, soft hyphens) and variation selectors draw nothing.
const INVISIBLE = /[\p{Cf}\u{FE00}-\u{FE0F}\u{E0100}-\u{E01EF}]/u;

/**
 * What a character no face has is drawn as. Not .notdef: its empty box copies as nothing (pdfkit maps no
 * Unicode value to it) and PDF/A forbids drawing it.
 */
const REPLACEMENT = '\ufffd';

/** Text the fonts can draw: control and format characters (bar newlines) vanish, the rest is kept as it is. */
export function printable(text: string | null | undefined): string {
  let out = '';
  for (const char of (text ?? '').normalize('NFC')) {
    const code = char.codePointAt(0)!;
    const control = code < 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f);
    if (char === '\n' || (!control && !INVISIBLE.test(char))) out += char;
  }
  return out;
}

export interface Run {
  face: Face;
  text: string;
}

/**
 * The text cut into runs of one face each. Spaces, digits and punctuation stay in the run they are in
 * (every face has them), so a CJK name with a space is one run, not three. A character no face has (an
 * emoji, Arabic, Thai) becomes the replacement character, in the Latin face.
 */
export function runsOf(text: string): Run[] {
  const runs: Run[] = [];
  for (let char of printable(text)) {
    const code = char.codePointAt(0)!;
    const last = runs.at(-1);
    let face = last && code < 0x80 && !/[A-Za-z]/.test(char) ? last.face : faceOf(code);
    if (!face) {
      face = 'latin';
      char = REPLACEMENT;
    }
    if (last && last.face === face) last.text += char;
    else runs.push({ face, text: char });
  }
  return runs;
}
