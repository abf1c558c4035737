import { expect, test } from 'vitest'
import { extractArticle } from '#server/providers/reader/extract.ts'
import { boundedHtml, MAX_ELEMENTS, MAX_NESTING, parseHtmlDocument } from '#server/providers/reader/html.ts'

const paragraphs = Array.from(
  { length: 4 },
  (_, index) =>
    `Paragraph ${index + 1} of a page that leaves its tags implied, long enough for Readability to count it as prose, with commas, clauses, and more words than a caption.`,
)
const prose = paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join('')

test.each([
  ['no <html>, <head> or <body>', `<!doctype html><title>Implied</title>${prose}`],
  ['no <body>', `<html><head><title>Implied</title></head>${prose}</html>`],
  [
    'a script between </head> and <body>',
    `<html><head><title>Implied</title></head><script>x()</script><body>${prose}</body></html>`,
  ],
  [
    'content before and after <body>',
    `<html><head><title>Implied</title></head>${prose.slice(0, prose.indexOf('<p>', 3))}<body>${prose.slice(prose.indexOf('<p>', 3))}</body></html>`,
  ],
  ['everything written out', `<!doctype html><html><head><title>Implied</title></head><body>${prose}</body></html>`],
])('a page with %s has its content in <body>, in order, and its title', (_case, html) => {
  const document = parseHtmlDocument(html)
  expect(document.title).toBe('Implied')
  expect(document.body.textContent).toBe(paragraphs.join(''))
  expect(extractArticle(parseHtmlDocument(html))?.text).toBe(paragraphs.join('\n\n'))
})

/** The deepest element nesting of a parsed document. */
function depthOf(node: Element): number {
  let deepest = 0
  for (const child of Array.from(node.children)) deepest = Math.max(deepest, depthOf(child))
  return deepest + 1
}

test('a page nested deeper than any article (a hostile wall of <div>s) keeps its text and paragraphs, flat', () => {
  const story = `<p>${'The council approved the tram extension on Tuesday after a long debate. '.repeat(10)}</p>`
  const levels = 160_000 // about 1.7 MB
  const hostile = `<html><head><title>Deep</title></head><body>${'<div>'.repeat(levels)}${story}${'</div>'.repeat(levels)}</body></html>`
  const flat = boundedHtml(hostile)
  expect(flat).not.toContain('<div>')
  const document = parseHtmlDocument(hostile)
  expect(depthOf(document.documentElement)).toBeLessThanOrEqual(4)
  expect(extractArticle(parseHtmlDocument(hostile))?.text).toContain('The council approved the tram extension')
})

test('a page within the bounds is parsed as it is', () => {
  const page = `<html><body>${'<div>'.repeat(MAX_NESTING - 2)}<p>Text.</p>${'</div>'.repeat(MAX_NESTING - 2)}<br><img src="a.png"><ul><li>one<li>two</ul></body></html>`
  expect(boundedHtml(page)).toBe(page)
  expect(boundedHtml(`<html><body>${'<span></span>'.repeat(MAX_ELEMENTS + 1)}</body></html>`)).not.toContain('<span>')
})
