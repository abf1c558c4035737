// Before paying for a synthesis: is there anything on these pages memory does not hold? A page that
// only says again what memory holds (a syndicated copy on a new URL, a press release re-posted, a
// brief that rewrites a wire story) teaches nothing: its sentences are confirmed by the rules at no
// synthesis tokens, and a run whose pages all do is reported as "nothing new". A sentence is known when
// memory quoted it word for word, or when it is surely a restatement in other words: it states
// figures or dates, each of them one a memory claim states, in that claim's stance, with most of its
// words. The site's furniture (what two pages of one site print alike, or a sentence that states,
// names and decides nothing a story would: a cookie banner, a newsletter box) says nothing. A page
// that only restates is not given to the model; anything short of sure is, so no news is hidden
// (issue 40, item 9).
import { extractStatements, type Statements, unsupportedFigures } from '#server/claims/figures.ts'
import { quoteText } from '#server/claims/quote.ts'
import {
  opposed,
  type Polarity,
  polarity,
  type Stem,
  sameStance,
  stemsOnce,
  subjectTerms,
} from '#server/claims/subject.ts'
import type { Finding, SourceForSynthesis } from '#server/providers/types.ts'
import { addressesReader, isBoilerplate, readPage, siteBoilerplate } from '#server/research/page-subject.ts'
import { proseParagraphs } from '#server/text/prose.ts'
import type { Fact } from '#server/topics/contract.ts'

/** Shorter pieces (a byline, "By staff.") say nothing either way; "It employs 300 people." does. */
const MIN_SENTENCE_WORDS = 4
/** A memory quote this long found inside a sentence makes the sentence known. */
const MIN_CONTAINED_QUOTE = 40
/** A restatement in other words has at least this share of its subject's words in the claim's. */
const MIN_SHARED_SUBJECT = 0.6

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' })

/** The pages that only say again what memory holds, and what each of their sentences restates. */
export type Restating = { pages: Set<number>; findings: Finding[] }

/** What the rules read of a sentence: its figures and dates, and its stance. */
type SentenceReading = { statements: Statements; stance: Polarity }

/**
 * The sources whose every sentence is one memory holds (word for word, or surely in other words) or
 * says nothing a reader could take as news, with at least one restated; their sentences as findings.
 * The other sources are what a synthesis is for.
 */
export function restatingPages(sources: SourceForSynthesis[], facts: Fact[]): Restating {
  const restating: Restating = { pages: new Set(), findings: [] }
  const current = facts.filter((fact) => !fact.supersededBy)
  if (sources.length === 0 || current.length === 0) return restating
  const known = new Set<string>()
  const longQuotes: string[] = []
  for (const fact of current) {
    for (const text of [fact.quote, fact.text]) {
      const normal = quoteText(text)
      if (!normal) continue
      known.add(stripEnd(normal))
      if (normal.length >= MIN_CONTAINED_QUOTE) longQuotes.push(stripEnd(normal))
    }
  }
  const furniture = siteBoilerplate(sources.map(readPage))
  const stem = stemsOnce()
  const restates = restatementReader(current, stem)
  for (const source of sources) {
    const findings: Finding[] = []
    let news = false
    for (const sentence of sentencesOf(source.text)) {
      const normal = stripEnd(quoteText(sentence))
      if (known.has(normal) || longQuotes.some((quote) => normal.includes(quote))) {
        findings.push({ text: sentence, quote: sentence, sourceIds: [source.id] })
        continue
      }
      // Read once for both questions: does it say a memory claim again, and could it be news?
      const reading: SentenceReading = { statements: extractStatements(sentence), stance: polarity(sentence, stem) }
      // Claimed in memory's words: a claim worded as memory holds it is confirmed without asking a
      // judge (server/claims/classify.ts).
      const restated = restates(sentence, reading)
      if (restated) findings.push({ text: restated.text, quote: sentence, sourceIds: [source.id] })
      else if (!isBoilerplate(sentence, furniture) && bearsNews(sentence, reading)) news = true
      if (news) break
    }
    if (news || findings.length === 0) continue
    restating.pages.add(source.id)
    restating.findings.push(...findings)
  }
  return restating
}

/**
 * The memory claim a sentence surely restates in other words, if any: it states a figure or a date,
 * states none the claim does not, takes the claim's stance, and most of its subject's words are the
 * claim's (in its words or its quote's).
 */
function restatementReader(
  facts: Fact[],
  stem: Stem,
): (sentence: string, reading: SentenceReading) => Fact | undefined {
  const subjects = facts.map(
    (fact) => new Set([...fact.subject, ...(fact.quote ? subjectTerms(fact.quote, stem) : [])]),
  )
  return (sentence, { statements, stance }) => {
    if (statements.figures.length === 0 && statements.dates.length === 0) return undefined
    const subject = subjectTerms(sentence, stem)
    if (subject.length === 0) return undefined
    return facts.find((fact, index) => {
      if (unsupportedFigures(statements, fact.statements).length > 0) return false
      if (opposed(stance, fact.polarity) || !sameStance(stance, fact.polarity, true)) return false
      const theirs = subjects[index] as Set<string>
      return subject.filter((term) => theirs.has(term)).length / subject.length >= MIN_SHARED_SUBJECT
    })
  }
}

/**
 * Whether a sentence may carry news: it states a figure or a date, names someone or something (a
 * capitalised word after its first), or takes a stance ("approved", "scrapped", "not") in the
 * voice of a story. What a site says to its reader takes stances too, but addresses the reader ("By
 * continuing you accept our cookie policy") or bids them ("Continue reading below the
 * advertisement"): a story's sentences do neither outside quotation marks.
 */
function bearsNews(sentence: string, { statements, stance }: SentenceReading): boolean {
  if (statements.figures.length > 0 || statements.dates.length > 0) return true
  if (NAMES_AFTER_FIRST_WORD.test(sentence.replace(LEADING_WORD, ''))) return true
  if (!stance.negated && stance.directions.length === 0) return false
  return !addressesReader(sentence)
}

/** A sentence's opening word, with any quote marks or brackets before it. */
const LEADING_WORD = /^[\s"'“‘([]*[\p{L}\p{N}'’-]+/u
const NAMES_AFTER_FIRST_WORD = /(?<![\p{L}\p{N}])\p{Lu}/u

function sentencesOf(text: string): string[] {
  const sentences: string[] = []
  for (const paragraph of proseParagraphs(text)) {
    for (const { segment } of sentenceSegmenter.segment(paragraph)) {
      const sentence = segment.trim()
      if (sentence.split(/\s+/).length >= MIN_SENTENCE_WORDS) sentences.push(sentence)
    }
  }
  return sentences
}

/** "Sales rose." and "Sales rose" are one sentence. */
function stripEnd(text: string): string {
  return text.replace(/[\s.!?…]+$/u, '')
}
