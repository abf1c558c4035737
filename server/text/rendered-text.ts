// Markdown a page's text carries that a reader never sees. Pages arrive as text or markdown; quotes
// are compared with the text as read, so "**$80/kWh**" and "[the report](https://...)" read as
// "$80/kWh" and "the report". Footnote markers ("[12]", "[citation needed]") go too. The quote check
// (server/claims/quote.ts) and paragraph reading (prose.ts) both read pages through this, so every
// sentence taken from a page is found there again.
const IMAGE = /!\[[^\]]*\]\([^)]*\)/gu
const LINK = /\[([^\]]*)\]\([^)]*\)/gu
const FOOTNOTE = /\[\s*(?:\d+(?:\s*[,;–-]\s*\d+)*|[a-z]|citation needed)\s*\]/giu
const EMPHASIS = /\*\*|__|(?<!`)`(?!`)/gu

/** A page's text as a reader sees it: markdown images, link targets, emphasis and footnotes removed. */
export function renderedText(markdown: string): string {
  let text = markdown.replace(IMAGE, '')
  // To a fixed point: "[[label](a)](b)" is "label", not "[label](b)".
  for (let previous = ''; previous !== text; ) {
    previous = text
    text = text.replace(LINK, '$1')
  }
  return text.replace(FOOTNOTE, '').replace(EMPHASIS, '')
}
