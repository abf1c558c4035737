import { expect, test } from 'vitest'
import { extractArticle } from '#server/providers/reader/extract.ts'
import { parseHtmlDocument } from '#server/providers/reader/html.ts'

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
