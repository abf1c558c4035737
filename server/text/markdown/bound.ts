// micromark is CommonMark-exact, but not linear on every input: a paragraph dense with emphasis
// ("*a* " 25,000 times) costs seconds, containers nested on one line ("> > > ...") or by ever
// deeper indentation cost the square of their depth and overflow the stack, and every block costs
// tens of microseconds. Pages and models write what they like, so markdown is bounded before it is
// parsed, in one linear pass that leaves any report Sextant writes as it is:
// - a line opens at most 8 containers (quotes, list items; the next marker is escaped to text), and
//   a run of spaces among them is cut to 24 columns;
// - a stretch between blank lines (no paragraph spans a blank line) has at most 500 inline markup
//   characters, a document 4,000, and a document is read for 1,000 lines; past that, the rest of
//   the stretch (or of the document) is set aside and put back into the tree as literal text after
//   parsing (`restoreLiterals`), never parsed at all. Block structure alone (pages) stops at 1,000
//   lines, and says where (`unread`), so the caller reads the rest some simpler way.
import type { Nodes, Root } from 'mdast'

const MAX_CONTAINERS_PER_LINE = 8
const MAX_INDENT = 24
const MAX_LINES = 1000
const MAX_MARKS_PER_STRETCH = 500
const MAX_MARKS = 4000
/** What opens or closes inline markup, as micromark's text tokenizer reads it (and GFM's "~"). */
const MARK = /[!&*<[\\\]_`~]/g
const BLANK = /^[ \t]*$/
// A literal stretch is written as U+E010, its index, U+E011: private-use characters that input never keeps.
const OPEN = '\uE010'
const CLOSE = '\uE011'
const RESERVED = /[\uE010\uE011]/g
const LITERAL = /\uE010(\d+)\uE011/g

export type BoundedMarkdown = {
  text: string
  literals: string[]
  /** The index of the first line left out of `text` (the line count when none was). */
  unread: number
}

/** `inline: false` for block structure only (pages), where inline markup costs nothing to parse. */
export function boundMarkdown(markdown: string, { inline = true } = {}): BoundedMarkdown {
  const literals: string[] = []
  const out: string[] = []
  const lines = markdown.replace(RESERVED, '').split('\n')
  let stretchMarks = 0
  let totalMarks = 0
  let read = 0
  let literal: string[] | undefined
  const setAside = (text: string[]) => {
    literals.push(text.join('\n'))
    literal = undefined
  }
  for (const [number, raw] of lines.entries()) {
    if (BLANK.test(raw)) {
      if (literal) setAside(literal)
      stretchMarks = 0
      out.push(raw)
      continue
    }
    if (literal) {
      literal.push(raw)
      continue
    }
    read += 1
    if (read > MAX_LINES) {
      if (!inline) return { text: out.join('\n'), literals, unread: number }
      out.push(`${OPEN}${literals.length}${CLOSE}`)
      setAside(lines.slice(number))
      break
    }
    const line = limitContainers(raw)
    const budget = Math.min(MAX_MARKS_PER_STRETCH - stretchMarks, MAX_MARKS - totalMarks)
    const cut = inline ? markBudgetEnd(line, budget) : -1
    if (cut < 0) {
      const marks = inline ? (line.match(MARK)?.length ?? 0) : 0
      stretchMarks += marks
      totalMarks += marks
      out.push(line)
      continue
    }
    out.push(`${line.slice(0, cut)}${OPEN}${literals.length}${CLOSE}`)
    literal = [line.slice(cut)]
    totalMarks += budget
  }
  if (literal) setAside(literal)
  return { text: out.join('\n'), literals, unread: lines.length }
}

/** Where in `line` the mark that is one too many is, or -1 when `budget` covers them all. */
function markBudgetEnd(line: string, budget: number): number {
  let seen = 0
  for (const match of line.matchAll(MARK)) {
    seen += 1
    if (seen > budget) return match.index
  }
  return -1
}

/**
 * A line's container markers (">", "-", "+", "*", "1." and "1)") past the eighth escaped, and each
 * run of spaces among them cut to 24 columns, so that neither one line nor indentation over many
 * lines nests deeper than that allows.
 */
function limitContainers(line: string): string {
  let out = ''
  let index = 0
  let depth = 0
  for (;;) {
    const space = /^[ \t]*/.exec(line.slice(index, index + MAX_INDENT + 1))?.[0] ?? ''
    if (space.length > MAX_INDENT || columns(space) > MAX_INDENT) {
      out += ' '.repeat(MAX_INDENT)
      index += space.length
      while (line[index] === ' ' || line[index] === '\t') index += 1
    } else {
      out += space
      index += space.length
    }
    const marker = containerMarker(line, index)
    if (marker === 0) return out + line.slice(index)
    depth += 1
    // The escape goes before the marker's last character: "\>", "\-", "12\.".
    const end = index + marker - 1
    if (depth > MAX_CONTAINERS_PER_LINE) return `${out}${line.slice(index, end)}\\${line.slice(end)}`
    out += line.slice(index, index + marker)
    index += marker
  }
}

/** The length of the container marker at `index`, or 0. */
function containerMarker(line: string, index: number): number {
  const char = line[index]
  if (char === '>') return 1
  const next = line[index + 1]
  if ((char === '-' || char === '+' || char === '*') && (next === ' ' || next === '\t')) return 1
  return /^\d{1,9}[.)](?=[ \t])/.exec(line.slice(index, index + 11))?.[0].length ?? 0
}

/** Columns a run of spaces and tabs takes at most (a tab, four). */
function columns(space: string): number {
  let width = 0
  for (const char of space) width += char === '\t' ? 4 : 1
  return width
}

/** Puts each literal stretch set aside by `boundMarkdown` back, as the text it was. */
export function restoreLiterals(tree: Root, literals: readonly string[]): void {
  if (literals.length === 0) return
  const stack: Nodes[] = [tree]
  while (stack.length > 0) {
    const node = stack.pop() as Nodes
    if ('value' in node && node.value.includes(OPEN)) {
      node.value = node.value.replace(LITERAL, (_, index: string) => literals[Number(index)] ?? '')
    }
    if ('children' in node) for (const child of node.children) stack.push(child)
  }
}
