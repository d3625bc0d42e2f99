import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp } from '../../helpers.ts';

const t = await createTestApp();
const clientId = (
  await t.db.db
    .insertInto('clients')
    .values({ company_id: t.tenant.companyId, name: 'XSS client' })
    .returning('id')
    .executeTakeFirstOrThrow()
).id;

/** Known XSS vectors (OWASP filter-evasion cheat sheet and friends), each with a marker that must not survive. */
const PAYLOADS: string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '"><script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  "<IMG SRC=JaVaScRiPt:alert('XSS')>",
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<body onload=alert(1)>',
  '<div onmouseover="alert(1)">hover</div>',
  '<details open ontoggle=alert(1)>x</details>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href=" JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="//evil.example/x">x</a>',
  '<a href="https://ok.example" onclick="alert(1)">ok</a>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="width: expression(alert(1))">x</p>',
  '<p style="position:fixed;top:0;left:0;width:100%;height:100%;opacity:0">overlay</p>',
  '<style>@import "https://evil.example/x.css";</style>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><input type=submit></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel=stylesheet href="javascript:alert(1)">',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
];

const ALLOWED_TAGS = new Set(
  'p br hr div span b strong i em u s strike sub sup small h1 h2 h3 h4 h5 h6 ul ol li blockquote code pre a table thead tbody tfoot tr th td caption'.split(
    ' ',
  ),
);
const ALLOWED_ATTRIBUTES = new Set(['href', 'title', 'rel', 'target', 'colspan', 'rowspan']);

/** Reads the output as markup: every tag allowed, every attribute allowed, every href to http(s) or mailto. */
function assertInert(html: string, payload: string): void {
  for (const match of html.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)) {
    const [, tag, attributes] = match;
    assert.ok(ALLOWED_TAGS.has(tag!.toLowerCase()), `tag <${tag}> survived ${payload}: ${html}`);
    for (const attr of attributes!.matchAll(/([^\s=]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/g)) {
      const name = attr[1]!.toLowerCase();
      assert.ok(ALLOWED_ATTRIBUTES.has(name), `attribute ${name} survived ${payload}: ${html}`);
      if (name === 'href') assert.match(attr[2]!, /^["']?(https?:\/\/|mailto:)/, `href survived ${payload}: ${html}`);
    }
  }
  // Belt and braces: no active markup anywhere, and nothing dangerous inside any surviving tag.
  assert.doesNotMatch(
    html,
    /<\s*\/?\s*(script|iframe|svg|img|object|embed|style|form|meta|base|link|body|math)\b/i,
    payload,
  );
  for (const tag of html.matchAll(/<[^>]*>/g))
    for (const marker of [/javascript:/i, /vbscript:/i, /data:/i, /\son\w+\s*=/i, /style\s*=/i, /expression\(/i])
      assert.doesNotMatch(tag[0], marker, `${payload}: ${html}`);
}

test(`${PAYLOADS.length} known XSS payloads: none survives in the stored or the returned comments`, async () => {
  assert.ok(PAYLOADS.length >= 15);
  for (const payload of PAYLOADS) {
    const res = await t.request('POST', '/notes', {
      body: { related_type: 'client', related_id: clientId, comments: `<p>before</p>${payload}<p>after</p>` },
    });
    assert.equal(res.status, 201, res.text);
    const returned: string = res.body.data.comments;
    const stored = await t.db.db
      .selectFrom('notes')
      .select('comments')
      .where('company_id', '=', t.tenant.companyId)
      .where('id', '=', res.body.data.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.comments, returned);
    assertInert(returned, payload);
    assert.ok(returned.includes('<p>before</p>'), `${payload}: ${returned}`);

    // The same rule on update.
    const patched = await t.request('PATCH', `/notes/${res.body.data.id}`, { body: { comments: payload } });
    assert.equal(patched.status, 200, patched.text);
    assertInert(patched.body.data.comments, payload);
  }
});

test('ordinary formatting and http, https and mailto links survive; links get a safe rel', async () => {
  const html =
    '<h2>Call</h2><p><strong>Ann</strong> said <em>yes</em>, <u>twice</u>.</p><ul><li>one</li></ul>' +
    '<ol><li>two</li></ol><blockquote>quote</blockquote><pre><code>x = 1</code></pre>' +
    '<p><a href="https://example.com/a?b=1">site</a> <a href="http://example.org">old</a> ' +
    '<a href="mailto:ann@example.com">mail</a></p>';
  const res = await t.request('POST', '/notes', {
    body: { related_type: 'client', related_id: clientId, comments: html },
  });
  assert.equal(res.status, 201, res.text);
  const out: string = res.body.data.comments;
  for (const kept of [
    '<h2>Call</h2>',
    '<strong>Ann</strong>',
    '<em>yes</em>',
    '<u>twice</u>',
    '<li>one</li>',
    '<blockquote>quote</blockquote>',
    '<pre><code>x = 1</code></pre>',
  ])
    assert.ok(out.includes(kept), `${kept} in ${out}`);
  assert.ok(out.includes('<a href="https://example.com/a?b=1" rel="noopener noreferrer nofollow">site</a>'), out);
  assert.ok(out.includes('href="http://example.org"'), out);
  assert.ok(out.includes('href="mailto:ann@example.com"'), out);
  // Plain text that looks like markup is kept as text, escaped.
  const text = await t.request('PATCH', `/notes/${res.body.data.id}`, { body: { comments: '1 < 2 & 3 > 2' } });
  assert.equal(text.body.data.comments, '1 &lt; 2 &amp; 3 &gt; 2');
});
