// The words that say what a sentence is about, shared by the claim matcher, the report's themes and
// the extractive synthesizer: word tokens without English function words, plurals folded.
import { topicKey } from '#server/text/topic-key.ts'
import { wordTokens } from '#server/text/words.ts'

// Words too common to say what a sentence is about: English function words. English only: other
// languages keep every word, which costs precision there but never drops a meaningful word.
export const STOPWORDS = new Set(
  (
    'a about above across after again against all along also although am among an and any are around as at be ' +
    'because been before being below between both but by can could did do does down during each either even ' +
    'ever every few for from further had has have he her here hers him his how however i if in into is it its ' +
    'just may me might more most much must my near neither new no nor not now of off often on once one only ' +
    'onto or other our ours out over own per rather said same says she should since so some still such than ' +
    'that the their theirs them then there these they this those though through thus to too toward towards two ' +
    'under unless until up upon us very via was we were what when where whether which while who whom whose why ' +
    'will with within without would yet you your'
  ).split(' '),
)

/** A query's distinct words, without English function words (unfolded: they meet `wordTokens`). */
export function queryTerms(text: string): string[] {
  return [...new Set(wordTokens(text).filter((word) => !STOPWORDS.has(word)))]
}

/** What makes two sentences "the same" for the extractive synthesizer's dedupe. */
export type FindingSignature = { normalized: string; terms: ReadonlySet<string> }

/** Two findings sharing this share of their content words say the same thing in other words. */
const SAME_FINDING_JACCARD = 0.7
const TRAILING_PUNCTUATION = /[\s\p{P}]+$/u
const CITATION = /\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\](?!\()/g

export function findingSignature(text: string): FindingSignature {
  return {
    normalized: topicKey(withoutCitations(text)).replace(TRAILING_PUNCTUATION, ''),
    terms: new Set(contentTerms(text)),
  }
}

/** Same normalized text, or content-word Jaccard >= 0.7. */
export function sameFinding(x: FindingSignature, y: FindingSignature): boolean {
  if (x.normalized === y.normalized) return true
  if (x.terms.size === 0 || y.terms.size === 0) return false
  let shared = 0
  for (const term of x.terms) if (y.terms.has(term)) shared += 1
  return shared / (x.terms.size + y.terms.size - shared) >= SAME_FINDING_JACCARD
}

/**
 * The words that carry a text's meaning, in order: word tokens without English stopwords or lone
 * Latin letters, with a light plural fold so "batteries" meets "battery" and "costs" meets "cost".
 */
export function contentTerms(text: string): string[] {
  const terms: string[] = []
  for (const token of wordTokens(withoutCitations(text))) {
    if (STOPWORDS.has(token) || /^[a-z]$/.test(token)) continue
    terms.push(foldPlural(token))
  }
  return terms
}

export function foldPlural(token: string): string {
  if (!/^[a-z]{4,}$/.test(token)) return token
  if (token.endsWith('ies')) return `${token.slice(0, -3)}y`
  if (token.endsWith('s') && !/(ss|us|is)$/.test(token)) return token.slice(0, -1)
  return token
}

/** The text without "[3]"-style citation markers. */
export function withoutCitations(text: string): string {
  return text.replace(CITATION, '')
}
