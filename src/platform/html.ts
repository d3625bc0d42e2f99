import sanitizeHtml from 'sanitize-html';

/**
 * The one HTML policy, for whatever markup the service stores or mails: every note body (whoever writes it),
 * content template bodies on write, and every HTML mail after its placeholders are filled (a value inside an
 * attribute, `href="{{client.name}}"`, can only be judged once it is there).
 * An allowlist (not a blocklist): ordinary formatting, lists, tables and links; no scripts, frames, forms,
 * media, event handlers, `style`/`class` attributes (styles can hide or overlay content), and links only to
 * http, https and mailto (no javascript:, data:, vbscript:, protocol-relative URLs).
 */
const POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'div',
    'span',
    'b',
    'strong',
    'i',
    'em',
    'u',
    's',
    'strike',
    'sub',
    'sup',
    'small',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'ul',
    'ol',
    'li',
    'blockquote',
    'code',
    'pre',
    'a',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
  ],
  allowedAttributes: { a: ['href', 'title', 'rel', 'target'], th: ['colspan', 'rowspan'], td: ['colspan', 'rowspan'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  allowedStyles: {},
  disallowedTagsMode: 'discard',
  // A link that opens elsewhere must not hand the opener over (reverse tabnabbing).
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: 'noopener noreferrer nofollow', ...(attribs.target ? { target: '_blank' } : {}) },
    }),
  },
};

export const safeHtml = (html: string): string => sanitizeHtml(html, POLICY);
