// Reading a page as prose: its paragraphs, each on one line, and their complete sentences. The
// engine ranks these sentences (server/research/extractive.ts) and cuts pages into passages
// (passages.ts, novelty.ts); whatever reads a page for its sentences reads it the same way.
import type { Nodes } from 'mdast'
import { taggedTokens } from '#server/text/english.ts'
import { normalizeLineEndings, parseBlocks } from '#server/text/markdown/parse.ts'
import { renderedText } from '#server/text/rendered-text.ts'
import { singleSpaced } from '#server/text/spacing.ts'
import { wordTokens } from '#server/text/words.ts'

// A fixed locale so sentence breaks do not depend on the host's default.
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' })

const MIN_SENTENCE_WORDS = 3

// Front matter is a `---` block of `key: value` lines at the very top.
const FRONT_MATTER_FENCE = /^(?:---|\.\.\.)$/u
const FRONT_MATTER_FIELD = /^[a-z_][\w-]*:(?:\s|$)/u
// Within a paragraph: a table's row is not prose; a list marker (markdown's, or a page's "•") opens
// an item of its own, and it and a quote's ">" are not part of the words.
const TABLE_ROW = /^\|/u
const LIST_MARKER = /^(?:[-*+•·]|\d{1,3}[.)])\s+/u
const QUOTE_MARKER = /^(?:>\s?)+/u
// A sentence opens with a capital, a digit, a currency sign or a quote, or with a letter of a script
// that has no case (Chinese, Arabic, Hebrew...); it closes with terminal punctuation, maybe followed
// by a closing quote or bracket. An ellipsis does not close one: it marks text that was cut.
const SENTENCE_START = /^[\p{Lu}\p{Lt}\p{Lo}\p{Nd}\p{Sc}"'“‘«„¿¡]/u
const SENTENCE_END = /(?<!\.\.)[.!?。！？]["'”’»)\]]*$/u
const LOWERCASE_START = /^\p{Ll}/u

/**
 * A source's text as paragraphs of plain prose, each on one line. Pages and corpus files are often
 * markdown hard-wrapped at a fixed width, and ICU ends a sentence at every newline, so a sentence's
 * second line would read as a sentence of its own: lines of a paragraph are joined first. Which lines
 * are paragraphs is the markdown parser's call (server/text/markdown/parse.ts): front matter,
 * headings, rules, tables and code are not prose. List items and lines much shorter than the text's
 * longest (a title without `#`) stand as paragraphs of their own.
 */
export function proseParagraphs(text: string): string[] {
  const page = withoutFrontMatter(normalizeLineEndings(text))
  // As a reader sees it (links keep their text, no emphasis), and footnotes ("[12]", which would read
  // as citations of this run's sources) go before segmenting, or ICU breaks inside "2026.[3] The".
  // The quote check reads pages the same way, so every sentence taken here is found there.
  // A page with nothing a reader does not see (most pages) has nothing of it in any of its lines
  // either: they are not rendered again (prose.test.ts holds that to the renderer).
  const rendered = renderedText(page)
  const plain = rendered === page
  const spaced = (lines: string[]) => lines.map((line) => singleSpaced(line).trim())
  const read = (lines: string[]) => spaced(plain ? lines : renderedText(lines.join('\n')).split('\n'))
  const longest = spaced(rendered.split('\n')).reduce((most, line) => Math.max(most, line.length), 0)
  const paragraphs: string[] = []
  for (const lines of paragraphLines(page)) {
    let current: string[] = []
    const flush = () => {
      const paragraph = singleSpaced(current.join(' ')).trim()
      if (paragraph) paragraphs.push(paragraph)
      current = []
    }
    for (const line of read(lines)) {
      if (!line || TABLE_ROW.test(line)) {
        flush()
        continue
      }
      if (LIST_MARKER.test(line)) flush()
      current.push(line.replace(QUOTE_MARKER, '').replace(LIST_MARKER, ''))
      // A wrapped line runs close to the wrap width; one far shorter, not ending mid-clause, ends
      // its paragraph (a title without `#` must not run into the sentence below it).
      if (line.length < longest / 2 && !/[,;:–—-]$/u.test(line)) flush()
    }
    flush()
  }
  return paragraphs
}

/**
 * A line that could open a block other than a paragraph: a heading, quote, list item, rule, setext
 * underline, fence or link definition, after any indentation (indented code is never parsed, so an
 * indented marker may still open its block; see parse.ts).
 */
const BLOCK_START = /^[ \t]*(?:[#>*+\-=_`~[]|\d{1,9}[.)])/m

/**
 * The lines of each paragraph of `page`, in order; past what the parser reads, each stretch between
 * blank lines. A page with no line that could open another block is only that (most pages are): it
 * is read as the parser would read it without paying for the parser, about ten times the cost.
 * `parse` forces the parser (tests compare the two).
 */
export function paragraphLines(page: string, parse = false): string[][] {
  const lines = page.split('\n')
  if (!parse && !BLOCK_START.test(page)) return blankLineStretches(lines)
  const { tree, unread } = parseBlocks(page)
  const groups: string[][] = []
  const stack: Nodes[] = [tree]
  while (stack.length > 0) {
    const node = stack.pop() as Nodes
    if (node.type === 'paragraph' && node.position) {
      groups.push(lines.slice(node.position.start.line - 1, node.position.end.line))
    } else if ('children' in node) {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as Nodes)
    }
  }
  groups.push(...blankLineStretches(lines.slice(unread)))
  return groups
}

function blankLineStretches(lines: string[]): string[][] {
  const groups: string[][] = []
  let rest: string[] = []
  for (const line of lines) {
    if (line.trim()) rest.push(line)
    else if (rest.length > 0) {
      groups.push(rest)
      rest = []
    }
  }
  if (rest.length > 0) groups.push(rest)
  return groups
}

/** Drops a leading `---` block of `key: value` lines, closed or (in text cut short) not. */
function withoutFrontMatter(text: string): string {
  const lines = text.trimStart().split(/\r?\n/)
  if (lines[0]?.trim() !== '---') return text
  let index = 1
  while (index < lines.length && (FRONT_MATTER_FIELD.test(lines[index] ?? '') || !lines[index]?.trim())) index += 1
  if (FRONT_MATTER_FENCE.test(lines[index]?.trim() ?? '')) index += 1
  return lines.slice(index).join('\n')
}

/**
 * A paragraph's complete sentences. ICU also breaks after "Dr." and "U.S.": a fragment too short to
 * be a sentence that ends in an abbreviation joins the next one, and a piece starting in lower case
 * continues the one before. A short answer ("No.", "Not necessarily.") is a sentence of its own, too
 * short to keep: the one after it says the fact. What is left must open and close like a sentence, so
 * the tail of a text cut mid-sentence is dropped.
 */
export function completeSentences(paragraph: string): string[] {
  const pieces: string[] = []
  let carried = ''
  for (const { segment } of sentenceSegmenter.segment(paragraph)) {
    // A short answer ends where it stops: too short to be a sentence, it is left out.
    if (carried && !abbreviationBefore(carried, segment)) carried = ''
    const text = `${carried} ${segment}`.trim()
    carried = ''
    if (!text) continue
    if (pieces.length > 0 && LOWERCASE_START.test(text)) {
      pieces.push(`${pieces.pop()} ${text}`)
    } else if (wordTokens(text).length < MIN_SENTENCE_WORDS && text.endsWith('.')) {
      carried = text
    } else {
      pieces.push(text)
    }
  }
  return pieces.filter(isSentence)
}

/**
 * Whether a fragment's last full stop belongs to an abbreviation ("Dr.", "U.S.", "J.") rather than
 * ending an answer ("No.", "Yes.", "Not yet."), as the tagger's lexicon reads it: it keeps an
 * abbreviation's stop in the word. "No." abbreviates "number" only before one ("No. 10").
 */
function abbreviationBefore(fragment: string, next: string): boolean {
  const last = taggedTokens(fragment).at(-1)
  if (!last || last.tag === 'PUNCT' || !last.word.endsWith('.')) return false
  return !/^nos?\.$/iu.test(last.word) || /^\s*\p{Nd}/u.test(next)
}

function isSentence(text: string): boolean {
  return SENTENCE_START.test(text) && SENTENCE_END.test(text) && wordTokens(text).length >= MIN_SENTENCE_WORDS
}
