// The server-side DOM the reader runs Readability on: linkedom, chosen over jsdom by
// bench/reader-dom.ts (as good an article on Readability's own test pages, about 5 times faster,
// and it lets go of a document's memory, where jsdom 31 kept megabytes of every page it parsed).
// linkedom runs no scripts and loads nothing a page links to. It does not build the implied
// <html>, <head> and <body> an HTML5 parser would, so content outside a <body> is settled into one
// here: Readability reads the body only, and `<title>…<p>…` with no <body> tag is valid HTML.
import { parseHTML } from 'linkedom'

/** Elements that belong in <head> when they come before any content. */
const HEAD_ELEMENTS = new Set(['title', 'meta', 'link', 'style', 'script', 'base', 'noscript', 'template'])
const ELEMENT_NODE = 1
const TEXT_NODE = 3

/** Deeper than real pages nest (a few dozen levels); Readability's work grows much faster than depth. */
export const MAX_NESTING = 64
/** More elements than a long article page holds. */
export const MAX_ELEMENTS = 20_000
/**
 * Readability's work grows with elements times depth: a heavy news page (8,000 elements, 30 deep) is
 * 240,000; 7,700 elements 48 deep took about a second on this project's two-core machine.
 */
export const MAX_ELEMENT_DEPTH = 400_000
/** Tags whose end a page may leave out: they do not nest when it does, so they are not counted as depth. */
const OPTIONAL_END = new Set(['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'thead', 'tbody', 'tfoot', 'colgroup'])
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
])
/** What a flattened page keeps of its markup: the blocks that make paragraphs, and its title. */
const KEPT_WHEN_FLAT = /<(?!\/?(?:p|br|h[1-6]|li|title|head|body|html)\b)[^>]*>/gi
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*?(\/?)>/g

/**
 * The page as parsed, bounded first: a page nested deeper than MAX_NESTING, with more than
 * MAX_ELEMENTS elements, or past MAX_ELEMENT_DEPTH (a hostile 1.7 MB of nested <div>s held a reader
 * thread for its whole 10 s limit) keeps only its text, paragraphs and headings, which any DOM and
 * Readability read in linear time. Measured in one pass over the markup, before anything is built.
 */
export function boundedHtml(html: string): string {
  let depth = 0
  let deepest = 0
  let elements = 0
  for (const [, closing, rawName, selfClosing] of html.matchAll(TAG)) {
    const name = (rawName as string).toLowerCase()
    if (closing) {
      if (!OPTIONAL_END.has(name) && !VOID.has(name)) depth = Math.max(0, depth - 1)
      continue
    }
    elements += 1
    if (selfClosing || VOID.has(name) || OPTIONAL_END.has(name)) continue
    depth += 1
    if (depth > deepest) deepest = depth
    if (deepest > MAX_NESTING || elements > MAX_ELEMENTS || elements * deepest > MAX_ELEMENT_DEPTH) {
      return html.replace(KEPT_WHEN_FLAT, ' ')
    }
  }
  return html
}

export function parseHtmlDocument(page: string): Document {
  const html = boundedHtml(page)
  let { document } = parseHTML(html)
  if (document.documentElement?.localName !== 'html') {
    const withoutDoctype = html.replace(/^\s*(<!--[\s\S]*?-->\s*)*<!doctype[^>]*>/i, '')
    ;({ document } = parseHTML(`<!doctype html><html>${withoutDoctype}</html>`))
  }
  settleIntoHeadAndBody(document as unknown as Document)
  return document as unknown as Document
}

function settleIntoHeadAndBody(document: Document): void {
  const root = document.documentElement
  const children = Array.from(root.childNodes)
  const head = children.find((node) => isElement(node, 'head')) as Element | undefined
  const body = children.find((node) => isElement(node, 'body')) as Element | undefined
  const strays = children.filter((node) => node !== head && node !== body)
  if (
    strays.every((node) => node.nodeType !== ELEMENT_NODE && !(node.nodeType === TEXT_NODE && node.textContent?.trim()))
  ) {
    return
  }
  const settledHead = head ?? root.insertBefore(document.createElement('head'), root.firstChild)
  const settledBody = body ?? root.appendChild(document.createElement('body'))
  const bodyStart = settledBody.firstChild
  let passedBody = false
  let content = false
  for (const node of children) {
    if (node === body) passedBody = true
    if (node === head || node === body) continue
    const headish = node.nodeType === ELEMENT_NODE && HEAD_ELEMENTS.has((node as Element).localName)
    const blank = node.nodeType !== ELEMENT_NODE && !(node.nodeType === TEXT_NODE && node.textContent?.trim())
    if (!content && !passedBody && (headish || blank)) {
      settledHead.appendChild(node)
      continue
    }
    content = true
    if (passedBody) settledBody.appendChild(node)
    else settledBody.insertBefore(node, bodyStart)
  }
  // linkedom finds <head> and <body> as the first two elements of <html>: keep them there.
  root.insertBefore(settledHead, root.firstChild)
  root.insertBefore(settledBody, settledHead.nextSibling)
}

function isElement(node: Node, name: string): boolean {
  return node.nodeType === ELEMENT_NODE && (node as Element).localName === name
}
