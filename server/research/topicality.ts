// Which of a run's sources are about its topic, by their words: a source is when its title, URL
// path and text hold at least half of the topic's words (three suffice, so a long topic asks no
// more of a page than a short one). A search that settles for any of a query's words (the local corpus does,
// and web engines can) also finds pages that share one word with the topic and are about something
// else: a battery road test "in the cold" for "heat pumps in cold climates", a car maker's
// "production line" for "AI agents in production". When no page holds a word of the topic at all,
// only pages an engine matched by meaning count (Exa's: text in another language can be about the
// topic). A page an engine matched by words holding none of the topic's was found by the words a
// plan adds ("latest developments", "data and statistics"): "quantum error correction" found a
// battery road test by "data". A topic the word splitter cannot split judges no page. A word the
// topic writes inside a hyphenated compound means that compound: a page's "ion" in "lithium-ion" is
// not the "ion" of "sodium-ion batteries". A topic's words of time or number ("today", "2026") say
// when, not what about, and do not count. Decision 023.
import { contentTerms } from '#server/claims/terms.ts'
import type { SourceForSynthesis } from '#server/providers/types.ts'
import { isFeature, slugWords, topicSubjectTerms } from '#server/research/page-subject.ts'
import { saysWhenOrHowMuch } from '#server/research/report-themes.ts'

/** A source is about the topic when it holds half the topic's words; three always suffice. */
const MAX_TOPIC_WORDS_NEEDED = 3
/** Words joined by hyphens ("sodium-ion", "state-of-the-art"); a dash between spaces joins nothing. */
const COMPOUND = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu

export type TopicalSource = Pick<SourceForSynthesis, 'id' | 'url' | 'title' | 'text' | 'matchedByMeaning'>

/** The ids of the sources about `topic`. */
export function sourcesOnTopic(topic: string, sources: readonly TopicalSource[]): Set<number> {
  const topicTerms = subjectWords(topic)
  if (topicTerms.size === 0) return new Set(sources.map((source) => source.id))
  const needed = Math.min(MAX_TOPIC_WORDS_NEEDED, Math.ceil(topicTerms.size / 2))
  const ownWords = ownCompounds(topic)
  const subject = topicSubjectTerms(topic)
  const onTopic = new Set<number>()
  let anyHeld = false
  for (const source of sources) {
    // A page's title and slug usually name its subject: its text is read only when they fall short.
    const held = new Set<string>()
    const hold = (text: string) => {
      for (const term of contentTerms(ownWords(text))) if (topicTerms.has(term)) held.add(term)
    }
    // A slug's hyphens part its words, so its compounds cannot be told from them.
    const headline = `${ownWords(source.title)} ${slugWords(source.url)}`
    hold(headline)
    if (held.size < needed) hold(source.text)
    if (held.size > 0) anyHeld = true
    // A page headlined with what the topic is about, that names all but one of the words needed, is
    // about it in its own words ("Traders breathe easier after park board trims its charge", of the
    // Glenmarra National Park entry fee): not a review or a column, and not a headline naming only
    // the topic's place.
    const headlined =
      needed >= MAX_TOPIC_WORDS_NEEDED &&
      held.size >= needed - 1 &&
      !isFeature(source) &&
      contentTerms(ownWords(headline)).some((term) => subject.has(term))
    if (held.size >= needed || headlined) onTopic.add(source.id)
  }
  if (anyHeld) return onTopic
  return new Set(sources.filter((source) => source.matchedByMeaning).map((source) => source.id))
}

/** The topic's words that say what it is about: without "today" or "2026", unless it has no other. */
function subjectWords(topic: string): Set<string> {
  const words = contentTerms(topic)
  const subject = words.filter((word) => !saysWhenOrHowMuch(word))
  return new Set(subject.length > 0 ? subject : words)
}

/**
 * For a topic that writes compounds ("sodium-ion batteries"), a text without the compounds that hold
 * one of their words but are others ("lithium-ion", for "ion"); for any other topic, the text as is.
 */
function ownCompounds(topic: string): (text: string) => string {
  const compounds = new Set<string>()
  const parts = new Set<string>()
  for (const [compound] of topic.matchAll(COMPOUND)) {
    const terms = compoundTerms(compound)
    compounds.add(terms.join('-'))
    for (const term of terms) parts.add(term)
  }
  if (compounds.size === 0) return (text) => text
  return (text) =>
    text.replace(COMPOUND, (compound) => {
      const terms = compoundTerms(compound)
      return compounds.has(terms.join('-')) || !terms.some((term) => parts.has(term)) ? compound : ' '
    })
}

/** A compound's words as contentTerms folds them ("Solid-State": "solid", "state"). */
function compoundTerms(compound: string): string[] {
  return contentTerms(compound.replaceAll('-', ' '))
}
