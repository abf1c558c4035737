// Claims are checked in code before anything is shown: a claim's quote must occur in the text of a
// source it cites, and the figures and dates its own words state must be in that quote. A model
// that invents a quote, quotes a page it did not cite, or turns "$90" into "$80" while paraphrasing
// is caught here, whatever the model is.
import { extractStatements, type Statements, unsupportedFigures } from '#server/claims/figures.ts'
import {
  isSubstantialQuote,
  locateNeedle,
  type PreparedPage,
  preparePage,
  quoteNeedle,
  quoteText,
} from '#server/claims/quote.ts'
import { opposed, type Polarity, polarity, stemsOnce, subjectTerms } from '#server/claims/subject.ts'
import { withoutCitations } from '#server/claims/terms.ts'

/** A claim as a synthesizer returns it: what it says, the verbatim quote that supports it, its sources. */
export type ClaimDraft = { text: string; quote: string; sourceIds: number[] }

/** A claim that passed: its quote as the page writes it, and the sources whose text holds it. */
export type VerifiedClaim = {
  text: string
  quote: string
  sourceIds: number[]
  statements: Statements
  subject: string[]
  polarity: Polarity
}

/** How many claims the synthesis made, how many are shown, and why the rest are not. */
export type Integrity = {
  claims: number
  shown: number
  /** The quote is on no page the run read, or the claim states a figure its quote does not. */
  droppedUnsupported: number
  /** Cited to a source that does not hold the quote, and shown with the source that does. */
  recited: number
  /** Worded with a figure or stance the quote does not state, and shown in the page's own words. */
  ownWords: number
  /** Every page it cites is about something else (research/topicality.ts): not shown. */
  offTopic: number
}

export type VerifiedClaims = { claims: VerifiedClaim[]; integrity: Integrity }

type PageText = { id: number; text: string; publishedDate?: string | null }

/** What a text states, and its stance: what a claim's words are checked against its quote's. */
type Reading = { statements: Statements; stance: Polarity }

/** At most this many claims are checked; the rest of an over-long answer is dropped, and counted. */
export const MAX_CLAIMS_CHECKED = 200
const MAX_QUOTE_CHARACTERS = 600
/** A quote shown in place of a misworded claim must say something by itself. */
const MIN_OWN_WORDS = 6

/**
 * A draft's words as its claim states them, unless the check shows the quote's words instead: its
 * citation markers out (they are the report's business, not figures the claim states), single-spaced.
 */
export function draftWords(draft: ClaimDraft): string {
  return withoutCitations(draft.text).replace(/\s+/g, ' ').trim()
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length
}

export function verifyClaims(drafts: ClaimDraft[], sources: PageText[]): VerifiedClaims {
  const pages = new Map<number, PreparedPage>()
  for (const source of sources) {
    // A source with no text can never be cited: nothing can be found in it.
    if (source.text.trim() !== '' && !pages.has(source.id)) pages.set(source.id, preparePage(source.text))
  }
  // A claim is often worded as its quote, and then read once for both; and the claims of a run share
  // most of their words, each stemmed once.
  const stem = stemsOnce()
  const readings = new Map<string, Reading>()
  const read = (text: string) => {
    let reading = readings.get(text)
    if (!reading) {
      reading = { statements: extractStatements(text), stance: polarity(text, stem) }
      readings.set(text, reading)
    }
    return reading
  }
  const kept = new Map<string, VerifiedClaim>()
  let droppedUnsupported = Math.max(0, drafts.length - MAX_CLAIMS_CHECKED)
  let recited = 0
  let ownWords = 0
  for (const draft of drafts.slice(0, MAX_CLAIMS_CHECKED)) {
    let text = draftWords(draft)
    const cited = draft.sourceIds.filter((id) => pages.has(id))
    // The quote, or else the claim's own words when they are a page's words (the quote field was
    // junk but the claim itself is verbatim).
    let found: { ids: number[]; quote: string } = { ids: [], quote: '' }
    let wasRecited = false
    for (const quote of [draft.quote.trim(), text]) {
      if (!text || quote.length > MAX_QUOTE_CHARACTERS || !isSubstantialQuote(quote)) continue
      found = locateIn(quote, cited, pages)
      if (found.ids.length > 0) break
      // Cited to the wrong page: the page that holds the quote word for word is its source.
      found = locateIn(quote, [...pages.keys()], pages)
      wasRecited = found.ids.length > 0
      if (wasRecited) break
    }
    if (found.ids.length === 0) {
      droppedUnsupported += 1
      continue
    }
    let reading = read(text)
    if (!faithful(reading, read(found.quote), found, sources)) {
      // The wording states a figure or a stance its quote does not: the page's own words are shown
      // instead, when they make a statement of their own; otherwise the claim is not shown.
      if (wordCount(found.quote) < MIN_OWN_WORDS) {
        droppedUnsupported += 1
        continue
      }
      text = found.quote.replace(/\s+/g, ' ').trim()
      reading = read(text)
      ownWords += 1
    }
    if (wasRecited) recited += 1
    // Two claims on one quote say one thing: the first wording is kept, with every source.
    const key = quoteText(found.quote)
    const previous = kept.get(key)
    if (previous) {
      previous.sourceIds = [...new Set([...previous.sourceIds, ...found.ids])]
      continue
    }
    kept.set(key, {
      text,
      quote: found.quote,
      sourceIds: found.ids,
      statements: reading.statements,
      subject: subjectTerms(text, stem),
      polarity: reading.stance,
    })
  }
  const claims = [...kept.values()]
  return {
    claims,
    integrity: { claims: drafts.length, shown: claims.length, droppedUnsupported, recited, ownWords, offTopic: 0 },
  }
}

/**
 * The claim's words say what its quote says: every figure it states is in the quote, every date is in
 * the quote or is the page's publication date, and it does not assert what the quote negates.
 */
function faithful(claim: Reading, quoted: Reading, found: { ids: number[]; quote: string }, sources: PageText[]) {
  const published = sources
    .filter((source) => found.ids.includes(source.id) && source.publishedDate)
    .map((source) => (source.publishedDate as string).slice(0, 10))
  const missing = unsupportedFigures(claim.statements, {
    figures: quoted.statements.figures,
    dates: [...quoted.statements.dates, ...published],
  })
  return missing.length === 0 && !opposed(claim.stance, quoted.stance)
}

function locateIn(quote: string, ids: number[], pages: Map<number, PreparedPage>): { ids: number[]; quote: string } {
  let text = ''
  const holders: number[] = []
  const needle = quoteNeedle(quote)
  for (const id of new Set(ids)) {
    const located = locateNeedle(needle, pages.get(id) as PreparedPage)
    if (located === undefined) continue
    holders.push(id)
    text ||= located
  }
  return { ids: holders, quote: text }
}
