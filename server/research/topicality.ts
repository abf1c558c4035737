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
import { contentTerms, STOPWORDS } from '#server/claims/terms.ts'
import type { SourceForSynthesis } from '#server/providers/types.ts'
import {
  host,
  isBoilerplate,
  isFeature,
  readPage,
  siteBoilerplate,
  slugWords,
  topicSubjectTerms,
} from '#server/research/page-subject.ts'
import { saysWhenOrHowMuch } from '#server/research/report-themes.ts'
import { opensWithName } from '#server/text/english.ts'
import { CALENDAR, nameWords } from '#server/text/names.ts'

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
  const short: TopicalSource[] = []
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
    else if (held.size > 0) short.push(source)
  }
  if (!anyHeld) return new Set(sources.filter((source) => source.matchedByMeaning).map((source) => source.id))
  for (const id of namedByTheStory(topic, sources, onTopic, short)) onTopic.add(id)
  return onTopic
}

/**
 * Of the pages that name a topic's place or company but too few of its other words, those about it
 * all the same: a story says "full-fibre" and "the build" for a "Tarnside broadband rollout", and
 * calls a fine by its company ("CNA fines Lendrigg Fibre £950,000 following Tarnside investigation").
 * Such a page names in its headline whom the run's pages about the topic name (storyNames). A page
 * that only mentions the place ("Busiest year yet for Tarnside Fell Rescue") names no one the
 * stories do. Only for a topic that writes a name with a capital: "heat pumps" names no one.
 */
function namedByTheStory(
  topic: string,
  sources: readonly TopicalSource[],
  onTopic: ReadonlySet<number>,
  short: readonly TopicalSource[],
): number[] {
  const capitalised = new Set(
    contentTerms(
      topic
        .split(/\s+/u)
        .filter((word) => /^\p{Lu}/u.test(word))
        .join(' '),
    ),
  )
  const candidates = short.filter((source) =>
    contentTerms(`${source.title} ${source.text}`).some((term) => capitalised.has(term)),
  )
  if (candidates.length === 0 || onTopic.size === 0) return []
  const named = storyNames(
    topic,
    sources.filter((source) => onTopic.has(source.id)),
    sources,
  )
  return candidates
    .filter((source) => namesIn(`${source.title} ${slugWords(source.url)}`).some((name) => named.has(name)))
    .map((source) => source.id)
}

/** A name this many of the run's pages about the topic give, on as many sites, is the story's. */
const MIN_NAMING_SITES = 2

/**
 * The names the run's pages about the topic give in their prose, other than the topic's own words:
 * the first word of a run of capitalised words that the run's texts never write in lower case, given
 * on pages of MIN_NAMING_SITES sites ("Lendrigg" of "Lendrigg Fibre"; not a site's "Subscribe", which
 * is its furniture, nor "Street", which follows a name).
 */
function storyNames(topic: string, about: readonly TopicalSource[], all: readonly TopicalSource[]): Set<string> {
  const topicTerms = new Set(contentTerms(topic))
  const lower = new Set<string>()
  for (const source of all) for (const word of nameWords(source.text)) if (word === word.toLowerCase()) lower.add(word)
  const pages = about.map(readPage)
  const boilerplate = siteBoilerplate(pages)
  const sites = new Map<string, Set<string>>()
  for (const page of pages) {
    const site = host(page.url)
    for (const sentence of page.paragraphs.flat()) {
      if (isBoilerplate(sentence, boilerplate)) continue
      for (const name of namesIn(sentence, { lower })) {
        if (lower.has(name) || contentTerms(name).some((term) => topicTerms.has(term))) continue
        sites.set(name, (sites.get(name) ?? new Set()).add(site))
      }
    }
  }
  return new Set([...sites].filter(([, held]) => held.size >= MIN_NAMING_SITES).map(([name]) => name))
}

/**
 * The first words of the runs of capitalised words in `text`, lower-cased, less the calendar's and
 * STOPWORDS. Of a sentence (`sentence`: the words the run writes in lower case), the first word is a
 * name only when the run never writes it in lower case and the tagger reads it as one ("Corvell
 * Networks says", not "Residents say").
 */
function namesIn(text: string, sentence?: { lower: ReadonlySet<string> }): string[] {
  const names: string[] = []
  let previousCapital = false
  nameWords(text).forEach((word, index) => {
    const capital = /^\p{Lu}\p{Ll}/u.test(word)
    const lower = word.toLowerCase()
    const name = capital && !previousCapital && !CALENDAR.test(lower) && !STOPWORDS.has(lower)
    previousCapital = capital
    if (!name) return
    if (sentence && index === 0 && (sentence.lower.has(lower) || !opensWithName(text))) return
    names.push(lower)
  })
  return names
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
