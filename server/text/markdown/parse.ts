// Markdown is parsed once, into an mdast tree (mdast-util-from-markdown: micromark's CommonMark,
// plus GFM strikethrough, which reports and models write as ~~old~~), and every renderer walks that
// tree: React (app/components/report-markdown.tsx), Slack mrkdwn and plain text. Never parsed as
// markup: raw HTML and <autolinks> (they stay text, so no tag or link can come from them) and
// indented code (pages and models indent prose; fenced code is code).
import type { Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough'
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough'
import { boundMarkdown, restoreLiterals } from '#server/text/markdown/bound.ts'

const NEVER_MARKUP = ['autolink', 'codeIndented', 'htmlFlow', 'htmlText']
// Every construct inside a paragraph: for block structure alone, a paragraph's text is just text.
const INLINE = [
  'attention',
  'characterEscape',
  'characterReference',
  'codeText',
  'hardBreakEscape',
  'labelEnd',
  'labelStartImage',
  'labelStartLink',
]

const FULL = {
  extensions: [gfmStrikethrough({ singleTilde: false }), { disable: { null: NEVER_MARKUP } }],
  mdastExtensions: [gfmStrikethroughFromMarkdown()],
}
const BLOCKS = { extensions: [{ disable: { null: [...NEVER_MARKUP, ...INLINE] } }] }

/** Markdown as a tree, bounded first (see bound.ts) so that no input costs more than linear time. */
export function parseMarkdown(markdown: string): Root {
  const { text, literals } = boundMarkdown(normalizeLineEndings(markdown))
  const tree = fromMarkdown(text, FULL)
  restoreLiterals(tree, literals)
  return tree
}

/**
 * Block structure only (headings, paragraphs, lists, quotes, code, rules), each paragraph's text as
 * written: for pages, which are read as a reader sees them (server/claims/quote.ts), not rendered.
 * Positions (line numbers) are those of `markdown` with line endings as "\n"; lines from `unread`
 * (0-based) on were not parsed (see bound.ts).
 */
export function parseBlocks(markdown: string): { tree: Root; unread: number } {
  const { text, unread } = boundMarkdown(normalizeLineEndings(markdown), { inline: false })
  return { tree: fromMarkdown(text, BLOCKS), unread }
}

export function normalizeLineEndings(text: string): string {
  return text.replace(/\r\n?/g, '\n')
}
