// Before paying for a synthesis: is there anything on these pages memory does not hold? A page that
// only says again, word for word, what memory quoted before (a syndicated copy on a new URL, a press
// release re-posted) teaches nothing, and a run whose pages all do is reported as "nothing new" with
// the restated claims confirmed, at no model tokens. Anything short of word for word goes to the model.
import { quoteText } from '#server/claims/quote.ts'
import type { Fact } from '#server/memory/types.ts'
import type { Finding, SourceForSynthesis } from '#server/providers/types.ts'
import { proseParagraphs } from '#server/text/prose.ts'

/** Shorter pieces (a byline, "By staff.") say nothing either way; "It employs 300 people." does. */
const MIN_SENTENCE_WORDS = 4
/** A memory quote this long found inside a sentence makes the sentence known. */
const MIN_CONTAINED_QUOTE = 40

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' })

/**
 * The restated claims when every sentence of every source is one memory holds (as a quote or a
 * claim's words, or containing a long quote of it); undefined as soon as one sentence is not.
 */
export function restatedOnly(sources: SourceForSynthesis[], facts: Fact[]): Finding[] | undefined {
  const current = facts.filter((fact) => !fact.supersededBy)
  if (sources.length === 0 || current.length === 0) return undefined
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
  const findings: Finding[] = []
  for (const source of sources) {
    for (const sentence of sentencesOf(source.text)) {
      const normal = stripEnd(quoteText(sentence))
      if (!known.has(normal) && !longQuotes.some((quote) => normal.includes(quote))) return undefined
      findings.push({ text: sentence, quote: sentence, sourceIds: [source.id] })
    }
  }
  return findings
}

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
