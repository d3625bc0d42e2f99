import { fail } from '../../platform/errors.ts';

/** The spec's limit: over 150 MB is 413 FILE_TOO_LARGE. */
export const MAX_FILE_BYTES = 150 * 1024 * 1024;
export const MAX_NAME_LENGTH = 255;

/** How a format's bytes are recognised: by magic bytes (file-type's answers), or as text by content rules. */
type Check = { magic: readonly string[] } | { text: 'plain' | 'json' | 'xml' | 'svg' | 'eml' };

interface Format {
  /** The canonical type, stored and served. */
  mime: string;
  /** Other declared types that mean the same format. */
  aliases?: readonly string[];
  check: Check;
}

const ZIP = ['application/zip'];
const OOXML = (mime: string): Format => ({ mime, check: { magic: [mime, ...ZIP] } });
const CFB = (mime: string): Format => ({ mime, check: { magic: ['application/x-cfb', mime] } });
const ODF = (mime: string): Format => ({ mime, check: { magic: [mime, ...ZIP] } });

/** The allowlist by extension: images, PDF, office documents, text, JSON, XML, ZIP, EML. */
export const FORMATS: Readonly<Record<string, Format>> = {
  jpg: { mime: 'image/jpeg', aliases: ['image/jpg', 'image/pjpeg'], check: { magic: ['image/jpeg'] } },
  jpeg: { mime: 'image/jpeg', aliases: ['image/jpg', 'image/pjpeg'], check: { magic: ['image/jpeg'] } },
  png: { mime: 'image/png', check: { magic: ['image/png'] } },
  gif: { mime: 'image/gif', check: { magic: ['image/gif'] } },
  webp: { mime: 'image/webp', check: { magic: ['image/webp'] } },
  bmp: { mime: 'image/bmp', aliases: ['image/x-ms-bmp'], check: { magic: ['image/bmp'] } },
  tif: { mime: 'image/tiff', check: { magic: ['image/tiff'] } },
  tiff: { mime: 'image/tiff', check: { magic: ['image/tiff'] } },
  heic: { mime: 'image/heic', check: { magic: ['image/heic', 'image/heic-sequence'] } },
  svg: { mime: 'image/svg+xml', check: { text: 'svg' } },
  pdf: { mime: 'application/pdf', check: { magic: ['application/pdf'] } },
  doc: CFB('application/msword'),
  xls: CFB('application/vnd.ms-excel'),
  ppt: CFB('application/vnd.ms-powerpoint'),
  docx: OOXML('application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
  xlsx: OOXML('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
  pptx: OOXML('application/vnd.openxmlformats-officedocument.presentationml.presentation'),
  odt: ODF('application/vnd.oasis.opendocument.text'),
  ods: ODF('application/vnd.oasis.opendocument.spreadsheet'),
  odp: ODF('application/vnd.oasis.opendocument.presentation'),
  rtf: { mime: 'application/rtf', aliases: ['text/rtf'], check: { magic: ['application/rtf'] } },
  txt: { mime: 'text/plain', check: { text: 'plain' } },
  csv: { mime: 'text/csv', aliases: ['text/plain', 'application/vnd.ms-excel'], check: { text: 'plain' } },
  json: { mime: 'application/json', aliases: ['text/json'], check: { text: 'json' } },
  xml: { mime: 'application/xml', aliases: ['text/xml'], check: { text: 'xml' } },
  zip: {
    mime: 'application/zip',
    aliases: ['application/x-zip-compressed', 'application/x-zip'],
    check: { magic: [...ZIP] },
  },
  eml: { mime: 'message/rfc822', check: { text: 'eml' } },
};

/** Executables and scripts: refused by name whatever their bytes (415 BLOCKED_EXTENSION). */
export const BLOCKED_EXTENSIONS = new Set([
  'exe', 'dll', 'com', 'bat', 'cmd', 'sh', 'bash', 'zsh', 'csh', 'ps1', 'psm1', 'psd1', 'vbs', 'vbe', 'js', 'mjs',
  'cjs', 'jse', 'wsf', 'wsh', 'msi', 'msp', 'mst', 'scr', 'pif', 'cpl', 'hta', 'jar', 'class', 'app', 'apk', 'dmg',
  'pkg', 'deb', 'rpm', 'lnk', 'reg', 'inf', 'gadget', 'py', 'pl', 'rb', 'php', 'html', 'htm', 'xhtml', 'shtml',
]); // prettier-ignore

/**
 * Declared types that say nothing, so the extension decides: what browsers send for unknown files, and
 * text/plain, which is also what a part without a Content-Type means (RFC 7578) and all the parser reports.
 * The bytes are checked against the extension's format either way.
 */
const UNDECLARED = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'text/plain']);

const ALLOWED_TYPES = new Set(Object.values(FORMATS).flatMap((f) => [f.mime, ...(f.aliases ?? [])]));

/** "report.final.PDF" → "pdf"; no dot (or a leading dot only) → "". */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Control characters (U+0000 included) and the path separators that survive the multipart parser. */
const UNSAFE_NAME = /[\u0000-\u001f\u007f/\\]/;

/** The stored name: the parser already cut any path ("../../x.txt" → "x.txt"); what remains must be a plain name. */
export function checkFileName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed === '.' || trimmed === '..')
    fail('VALIDATION_ERROR', 'The file needs a name (filename in its Content-Disposition)', { field: 'file' });
  if (UNSAFE_NAME.test(trimmed))
    fail('VALIDATION_ERROR', 'The file name must not contain control characters or path separators', {
      field: 'file',
    });
  if ([...trimmed].length > MAX_NAME_LENGTH)
    fail('VALIDATION_ERROR', `The file name must be at most ${MAX_NAME_LENGTH} characters`, { field: 'file' });
  return trimmed;
}

/**
 * The checks that need only the part's headers, in the order the most telling answer wins: a blocked extension,
 * a declared type outside the allowlist, an unlisted extension, a declared type that contradicts the extension.
 */
export function formatFor(name: string, declaredType: string): { extension: string; format: Format } {
  const extension = extensionOf(name);
  if (BLOCKED_EXTENSIONS.has(extension))
    fail('BLOCKED_EXTENSION', `Files ending in .${extension} are not accepted (executables and scripts)`, {
      extension,
    });
  const declared = declaredType.split(';')[0]!.trim().toLowerCase();
  if (!UNDECLARED.has(declared) && !ALLOWED_TYPES.has(declared))
    fail('UNSUPPORTED_MIME', `Files of type ${declared} are not accepted`, { content_type: declared });
  const format = FORMATS[extension];
  if (!format)
    fail('UNSUPPORTED_EXTENSION', `Files ending in ${extension ? `.${extension}` : 'no extension'} are not accepted`, {
      extension,
      allowed: Object.keys(FORMATS),
    });
  if (!UNDECLARED.has(declared) && declared !== format.mime && !format.aliases?.includes(declared))
    fail('MIME_MISMATCH', `A .${extension} file cannot be of type ${declared}`, {
      extension,
      content_type: declared,
    });
  return { extension, format };
}

export type { Format };
