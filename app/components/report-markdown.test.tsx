import { renderToStaticMarkup } from 'react-dom/server'
import { expect, test } from 'vitest'
import { ReportMarkdown } from '#app/components/report-markdown.tsx'

function render(markdown: string, sourceCount = 3) {
  return renderToStaticMarkup(<ReportMarkdown markdown={markdown} sourceCount={sourceCount} />)
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

test('only http(s) links are links; a citation past the sources stays text', () => {
  const html = render('[safe](https://example.com/a) [bad](javascript:void0) [data](data:text/html,x) [9]')
  expect(html).toContain('<a href="https://example.com/a" target="_blank" rel="noopener noreferrer"')
  expect(html).not.toContain('javascript:void0"')
  expect(html).toContain('[bad](javascript:void0)')
  expect(html).not.toContain('href="data:')
  expect(html).not.toContain('#source-9')
  expect(html).toContain('[9]')
})

test('HTML in a report is shown as text, never passed through', () => {
  const html = render('<script>alert(1)</script> <img src=x onerror=alert(1)>\n\n# not a heading')
  expect(html).not.toContain('<script>')
  expect(html).not.toContain('<img')
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  expect(html).toContain('<p># not a heading</p>')
})
