import { renderToStaticMarkup } from 'react-dom/server'
import { expect, test } from 'vitest'
import { ReportMarkdown } from '#app/components/report-markdown.tsx'

const SOURCES = ['https://example.com/a', 'https://example.org/b', 'https://example.net/c']

function render(markdown: string, sourceUrls = SOURCES) {
  return renderToStaticMarkup(<ReportMarkdown markdown={markdown} sourceUrls={sourceUrls} />)
}

/** Every href in the markup but the citations' #source-n. */
function hrefs(html: string): string[] {
  return [...html.matchAll(/href="([^"#][^"]*)"/g)].map((match) => match[1] as string)
}

test('headings, lists and paragraphs become their elements, ## under the page headings', () => {
  const html = render(
    '## Headline\n\n### Key findings\n- one [1]\n- two\n\n1. first\n2. second\n\nA paragraph\nthat wraps.',
  )
  expect(html).toContain('<h3 class="mt-2 text-xl font-semibold text-slate-900">Headline</h3>')
  expect(html).toContain('>Key findings</h4>')
  expect(html).toMatch(/<ul[^>]*><li>one <a href="#source-1"/)
  expect(html).toMatch(/<ol start="1"[^>]*><li>first<\/li><li>second<\/li><\/ol>/)
  expect(html).toContain('<p>A paragraph that wraps.</p>')
})

test('bold, italic, code, hard line breaks and adjacent citations', () => {
  const html = render('**To:** Brief requester  \n*From:* `Sextant` [1][2]')
  expect(html).toContain('<strong>To:</strong> Brief requester<br/>')
  expect(html).toContain('<em>From:</em>')
  expect(html).toContain('>Sextant</code>')
  expect(html).toContain('href="#source-1"')
  expect(html).toContain('href="#source-2"')
})

test("only links to the report's sources are links; a citation past the sources stays text", () => {
  const html = render(
    '[safe](https://example.com/a) [bad](javascript:void0) [data](data:text/html,x) [elsewhere](https://example.com/z) [9]',
  )
  expect(html).toContain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer"')
  expect(hrefs(html)).toEqual(['https://example.com/a'])
  expect(html).toContain('safe</a> bad data elsewhere [9]')
})

test('a link to a corpus document goes to its page on this site, not to its name', () => {
  const html = render('[the article](https://corpus.local/batteries/grid-pilot.md) [1]', [
    'https://corpus.local/batteries/grid-pilot.md',
  ])
  expect(hrefs(html)).toEqual(['/corpus/batteries/grid-pilot.md'])
  expect(html).toContain('href="#source-1"')
})

test('nested and repeated links, reference links and autolinks link nowhere but to a source', () => {
  const html = render(
    [
      '[[label](https://a.test)](https://evil.test/phish)',
      '[[[x](https://e1.test)](https://e2.test)](https://e3.test)',
      '[[inner](https://example.com/a)](https://evil.test/outer)',
      'See [ref][x] <https://evil.test/auto>',
      '',
      '[x]: https://evil.test/ref',
    ].join('\n'),
  )
  expect(hrefs(html)).toEqual(['https://example.com/a'])
  expect(html).not.toMatch(/https?:\/\/(evil|a|e\d)\.test/)
  expect(html).toContain('<p>label x <a href="https://example.com/a"')
})

test('bidirectional controls in a report are removed, so nothing renders reversed', () => {
  const html = render('Totally safe \u202Eexe.txt\u202C file [1]\u2067')
  expect(html).toContain('Totally safe exe.txt file')
  expect(html).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/)
})

test('HTML in a report is shown as text, never passed through', () => {
  const html = render('<script>alert(1)</script> <img src=x onerror=alert(1)>\n\n# not a heading')
  expect(html).not.toContain('<script>')
  expect(html).not.toContain('<img')
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &lt; img src=x onerror=alert(1)&gt;')
  // A "#" heading is drawn at the level of "##": a report never puts a heading above its place.
  expect(html).toContain('<h3 class="mt-2 text-xl font-semibold text-slate-900">not a heading</h3>')
  expect(html).not.toMatch(/<h[12]/)
})

test('100 KB of hostile markdown renders in linear time', () => {
  const hostile = [
    '*a '.repeat(33_000),
    `${'*a '.repeat(16_000)}${'a* '.repeat(16_000)}`,
    `${'> '.repeat(50_000)}x`,
    '- **a** [1]\n'.repeat(8_000),
  ]
  for (const markdown of hostile) {
    const started = performance.now()
    const html = render(markdown)
    // Linear is tens of milliseconds here; the square of 100 KB is minutes, or a stack overflow.
    expect(performance.now() - started).toBeLessThan(3_000)
    expect(html.length).toBeGreaterThan(markdown.length / 2)
  }
}, 60_000)
