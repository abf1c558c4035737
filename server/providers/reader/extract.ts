// The article in a page: Readability finds it, and its block elements become paragraphs separated
// by blank lines, so the engine's passages and quotes never run two paragraphs (or a heading and
// its paragraph) together. Works on any DOM Readability accepts; reader/html.ts picks the one we use.
import { Readability } from '@mozilla/readability'

export type Article = { title: string; text: string; publishedDate: string | null }

/** Elements that start and end a paragraph of their own. */
const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'CAPTION',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'TBODY',
  'TFOOT',
  'THEAD',
  'TR',
  'UL',
])
/** Never text, whatever Readability kept. */
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'MATH', 'IFRAME', 'OBJECT'])

const TEXT_NODE = 3
const ELEMENT_NODE = 1

// Readability always returns its best candidate, even on a page with no article (a list of links,
// an app shell that says "enable JavaScript"). Less text than a search snippet, or text that is
// mostly links, is no article: the engine keeps the snippet instead.
const MIN_ARTICLE_CHARACTERS = 200
const MAX_LINK_SHARE = 0.5

/**
 * The page's article, or null when Readability finds none (a page of links, an app shell).
 * Readability changes the document: parse a fresh one for each call.
 */
export function extractArticle(document: Document): Article | null {
  const article = new Readability<Element>(document, {
    // A page is capped at 2 MiB, so this only bounds the work on pathological markup.
    maxElemsToParse: 100_000,
    serializer: (node) => node as Element,
  }).parse()
  if (!article?.content) return null
  const text = paragraphsOf(article.content)
  if (text.length < MIN_ARTICLE_CHARACTERS || linkShare(article.content) > MAX_LINK_SHARE) return null
  return {
    title: (article.title ?? '').replace(/\s+/g, ' ').trim(),
    text,
    publishedDate: isoDate(article.publishedTime),
  }
}

/** The element's text, one paragraph per block element, blank lines between them. */
export function paragraphsOf(root: Node): string {
  const paragraphs: string[] = []
  let current = ''
  const flush = () => {
    const paragraph = current
      .split('\n')
      .map((line) => line.replace(/[ \t\f\r\u00a0]+/g, ' ').trim())
      .filter((line) => line !== '')
      .join('\n')
    if (paragraph) paragraphs.push(paragraph)
    current = ''
  }
  // Iterative, so deeply nested markup cannot overflow the stack. An entry is a node to visit, or
  // the end of a block (flush) or of a table cell (a space between cells).
  const stack: Array<Node | 'flush' | 'space'> = [...Array.from(root.childNodes).reverse()]
  while (stack.length > 0) {
    const item = stack.pop() as Node | 'flush' | 'space'
    if (item === 'flush') flush()
    else if (item === 'space') current += ' '
    else if (item.nodeType === TEXT_NODE) current += (item.textContent ?? '').replace(/\s+/g, ' ')
    else if (item.nodeType === ELEMENT_NODE) {
      const tag = (item as Element).tagName.toUpperCase()
      if (SKIPPED.has(tag)) continue
      if (tag === 'BR') {
        current += '\n'
        continue
      }
      if (BLOCKS.has(tag)) {
        flush()
        stack.push('flush')
      } else if (tag === 'TD' || tag === 'TH') stack.push('space')
      for (const child of Array.from(item.childNodes).reverse()) stack.push(child)
    }
  }
  flush()
  return paragraphs.join('\n\n')
}

/** How much of the element's text is the text of links. */
function linkShare(root: Element): number {
  const total = (root.textContent ?? '').replace(/\s+/g, '').length
  if (total === 0) return 1
  let linked = 0
  for (const link of Array.from(root.getElementsByTagName('a')))
    linked += (link.textContent ?? '').replace(/\s+/g, '').length
  return linked / total
}

/** A date the page states, as an ISO datetime; null when absent or not a date. */
function isoDate(value: string | null | undefined): string | null {
  if (!value) return null
  const time = Date.parse(value)
  return Number.isNaN(time) ? null : new Date(time).toISOString()
}
