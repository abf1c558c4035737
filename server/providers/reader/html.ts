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

export function parseHtmlDocument(html: string): Document {
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
