// What of each page the model reads: the passages that matter to the brief, not the page's opening.
// A page is split into passages of a few sentences; every passage of the run is scored with BM25
// against the brief and the queries that found its page, and each page gives its best passages up to
// a cap. So the synthesis costs what the new pages earn: fewer pages, a smaller prompt. A page whose
// text another page of the run already carries (a syndicated copy) is read once.
import { queryTerms as terms } from '#server/claims/terms.ts'
import { sameTextPages } from '#server/research/same-text.ts'
import { bm25 } from '#server/text/bm25.ts'
import { proseParagraphs } from '#server/text/prose.ts'
import { wordTokens } from '#server/text/words.ts'

/**
 * A passage is a paragraph; one longer than this (or half a page's cap, when that is less, so a page
 * gives at least two) is split by sentence.
 */
const PASSAGE_CHARS = 600
/** The share of its neighbours' relevance a paragraph earns. */
const NEIGHBOUR_SHARE = 0.5
/** However many pages a run finds, each gives at least this much. */
const MIN_CAP = 400
/** Between two passages of a page that are not next to each other. */
export const PASSAGE_GAP = '\n\n[…]\n\n'

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' })

export type PageForReading = { url: string; text: string; query?: string }

export type ReadPage = {
  /** The page's best passages in page order, joined by PASSAGE_GAP. */
  text: string
  charactersAvailable: number
}

export type Reading = {
  /** The pages to read, in the order given, each with the passages chosen; duplicates left out. */
  pages: Array<{ index: number } & ReadPage>
  /** Indexes of pages left out because an earlier page carries the same text. */
  duplicates: number[]
  charactersRead: number
  charactersAvailable: number
}

/**
 * Chooses what the model reads of `pages`: at most `capPerPage` characters of each (a single passage
 * longer than that is cut at the cap), ranked against `brief` and the query that found the page.
 * `ceiling` bounds the whole for a run that finds very many new pages: each page's cap then shrinks
 * alike, so the prompt still fits a model's context.
 */
export function readPassages(
  pages: PageForReading[],
  brief: string,
  capPerPage: number,
  ceiling = Number.POSITIVE_INFINITY,
  texts: PageTexts = pageTexts(),
): Reading {
  const duplicates = sameTextPages(pages, (text) => texts.words(text))
  const kept = pages.map((page, index) => ({ page, index })).filter(({ index }) => !duplicates.includes(index))
  const briefTerms = terms(brief)
  // What each page is scored on: the brief and the query that found it. Only these terms are indexed.
  const queries = kept.map(({ page }) => [...new Set([...briefTerms, ...terms(page.query ?? '')])])
  const queried = new Set(queries.flat())
  // Each passage's score depends on the passage size, not on the cap: a page's passages are split
  // and scored once per size. A ceiling that shrinks the caps to the same size only chooses again.
  const scoredBySize = new Map<number, Array<Array<{ text: string; at: number; score: number }>>>()
  const scoredAt = (size: number) => {
    const known = scoredBySize.get(size)
    if (known) return known
    const split = kept.map(({ page }) => texts.passages(page.text, size))
    const score = bm25(
      split.flatMap((page) => page.tokens),
      queried,
    )
    let offset = 0
    const scored = kept.map((_, position) => {
      const passages = split[position]?.passages ?? []
      const query = queries[position] ?? []
      const own = passages.map((_, at) => score(offset + at, query))
      offset += passages.length
      // A paragraph right after one on the brief often finishes what it says ("It will cost $3
      // billion."): it earns a share of its neighbours' score.
      return passages.map((text, at) => ({
        text,
        at,
        score: (own[at] ?? 0) + (NEIGHBOUR_SHARE * ((own[at - 1] ?? 0) + (own[at + 1] ?? 0))) / 2,
      }))
    })
    scoredBySize.set(size, scored)
    return scored
  }
  const readAt = (cap: number) => {
    const scored = scoredAt(passageSize(cap))
    return kept.map(({ page, index }, position) => ({
      index,
      ...choose(scored[position] ?? [], cap),
      charactersAvailable: page.text.length,
    }))
  }
  let read = readAt(capPerPage)
  const total = () => read.reduce((sum, page) => sum + page.text.length, 0)
  if (total() > ceiling) read = readAt(Math.max(MIN_CAP, Math.floor(ceiling / Math.max(1, read.length))))
  return {
    pages: read,
    duplicates,
    charactersRead: total(),
    charactersAvailable: pages.reduce((sum, page) => sum + page.text.length, 0),
  }
}

/** The passage size for a page cap: a paragraph, or half the cap when that is less (a page gives at least two). */
function passageSize(cap: number): number {
  return Math.max(120, Math.min(PASSAGE_CHARS, Math.floor(cap / 2)))
}

/**
 * What readPassages works out for a page's text alone (its words, its passages at a size and their
 * words), kept for a run: the search step prepares the pages it has while it waits for more
 * (prepareInIdle), so the synthesis, which waits on this before it asks the model, does only the
 * rest. The results are the same with or without it.
 */
export type PageTexts = {
  words: (text: string) => string[]
  passages: (text: string, size: number) => { passages: string[]; tokens: string[][] }
}

export function pageTexts(): PageTexts {
  const known = new Map<string, { words?: string[]; bySize: Map<number, { passages: string[]; tokens: string[][] }> }>()
  const entry = (text: string) => {
    let found = known.get(text)
    if (!found) {
      found = { bySize: new Map() }
      known.set(text, found)
    }
    return found
  }
  return {
    words(text) {
      const found = entry(text)
      found.words ??= wordTokens(text)
      return found.words
    },
    passages(text, size) {
      const found = entry(text)
      let split = found.bySize.get(size)
      if (!split) {
        const passages = splitPassages(text, size)
        split = { passages, tokens: passages.map((passage) => wordTokens(passage)) }
        found.bySize.set(size, split)
      }
      return split
    },
  }
}

/**
 * Prepares page texts for readPassages at each of `capsPerPage`, a page at a time, each in its own
 * turn of the event loop: done while a run waits on its providers, and never holding up an answer
 * that arrives meanwhile for longer than one page takes.
 */
export function prepareInIdle(texts: PageTexts, pending: string[], capsPerPage: number[]): void {
  const sizes = [...new Set(capsPerPage.map(passageSize))]
  const next = () => {
    const text = pending.shift()
    if (text === undefined) return
    texts.words(text)
    for (const size of sizes) texts.passages(text, size)
    setImmediate(next)
  }
  setImmediate(next)
}

/**
 * The best passages up to the cap (ties to the earlier one), then put back in page order. A passage
 * sharing no word with the brief still comes after those that do, when there is room: a page a
 * search returned for the brief states facts in sentences that do not repeat its subject ("Its
 * plant in Nevada will make 24 GWh a year."), and a short page is read whole.
 */
function choose(scored: Array<{ text: string; at: number; score: number }>, cap: number): { text: string } {
  const ranked = [...scored].sort((a, b) => b.score - a.score || a.at - b.at)
  const chosen: typeof scored = []
  let used = 0
  for (const passage of ranked) {
    const room = cap - used - (chosen.length > 0 ? PASSAGE_GAP.length : 0)
    if (room <= 0) break
    if (passage.text.length > room) {
      // The best passage alone is longer than the cap: its opening, so the page is not skipped.
      if (chosen.length === 0) {
        chosen.push({ ...passage, text: passage.text.slice(0, room) })
        used += room
      }
      continue
    }
    chosen.push(passage)
    used += passage.text.length + (chosen.length > 1 ? PASSAGE_GAP.length : 0)
  }
  chosen.sort((a, b) => a.at - b.at)
  let text = ''
  chosen.forEach((passage, position) => {
    const adjacent = position > 0 && passage.at === (chosen[position - 1]?.at ?? -2) + 1
    text += position === 0 ? passage.text : `${adjacent ? '\n\n' : PASSAGE_GAP}${passage.text}`
  })
  return { text }
}

/** A page's passages: its paragraphs, a paragraph longer than `size` split by sentence. */
export function splitPassages(text: string, size = PASSAGE_CHARS): string[] {
  const paragraphs = proseParagraphs(text)
  return (paragraphs.length > 0 ? paragraphs : [text.replace(/\s+/g, ' ').trim()])
    .flatMap((paragraph) => (paragraph.length <= size ? [paragraph] : bySentence(paragraph, size)))
    .filter(Boolean)
}

function bySentence(paragraph: string, size: number): string[] {
  const pieces: string[] = []
  let current = ''
  for (const { segment } of sentenceSegmenter.segment(paragraph)) {
    if (current && current.length + segment.length > size) {
      pieces.push(current.trim())
      current = ''
    }
    current += segment
  }
  if (current.trim()) pieces.push(current.trim())
  return pieces
}
