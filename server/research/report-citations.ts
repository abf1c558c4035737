// Citation markers in a synthesis's text ("[3]", "[1, 2]", "[1][2]"), read and rewritten while the
// report is built (server/research/report.ts): checked against the pages a run read, then
// renumbered from 1. Once a report is done, its markers are read as a tree (server/text/markdown/citations.ts).
import { CITATION_MARKER } from '#server/text/markdown/citations.ts'

// One run of adjacent markers, [1], [1, 2], [1][2], with the space before it.
const CITATION_RUN = new RegExp(`([ \\t]*)((?:${CITATION_MARKER.source})+)`, 'g')
const DIGITS = /\d+/g

/** Every citation number in a text, in order of appearance: [3], [1, 2] and [1][2] forms. */
export function citationNumbers(markdown: string): number[] {
  const numbers: number[] = []
  for (const match of markdown.matchAll(CITATION_RUN)) {
    for (const digits of (match[2] ?? '').match(DIGITS) ?? []) numbers.push(Number(digits))
  }
  return numbers
}

/** Maps each cited number through `map`; a marker whose numbers all map to nothing is removed. */
export function rewriteCitations(text: string, map: (id: number) => number | undefined): string {
  return text.replace(CITATION_RUN, (_match, space: string, run: string) => {
    const ids = [...new Set((run.match(DIGITS) ?? []).flatMap((digits) => map(Number(digits)) ?? []))]
    return ids.length > 0 ? `${space}${markers(ids)}` : ''
  })
}

export function stripCitations(text: string): string {
  return rewriteCitations(text, () => undefined)
}

export function markers(ids: number[]): string {
  return ids.map((id) => `[${id}]`).join('')
}

/** The text on one line, without its citations. */
export function oneLine(text: string): string {
  return stripCitations(text).replace(/\s+/g, ' ').trim()
}
