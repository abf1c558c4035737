// Which of a run's sources are about its topic, by their words: a source is when its title, URL
// path and text hold at least half of the topic's words (three suffice, so a long topic asks no
// more of a page than a short one). A search that settles for any of a query's words (the local corpus does,
// and web engines can) also finds pages that share one word with the topic and are about something
// else: a battery road test "in the cold" for "heat pumps in cold climates", a car maker's
// "production line" for "AI agents in production". Every source counts when no page holds a word of
// the topic at all (text in another language, or a topic the word splitter cannot split).
// Decision 023.
import { contentTerms } from '#server/claims/terms.ts'

/** A source is about the topic when it holds half the topic's words; three always suffice. */
const MAX_TOPIC_WORDS_NEEDED = 3

export type TopicalSource = { id: number; url: string; title: string; text: string }

/** The ids of the sources about `topic`. */
export function sourcesOnTopic(topic: string, sources: readonly TopicalSource[]): Set<number> {
  const topicTerms = new Set(contentTerms(topic))
  const every = () => new Set(sources.map((source) => source.id))
  if (topicTerms.size === 0) return every()
  const needed = Math.min(MAX_TOPIC_WORDS_NEEDED, Math.ceil(topicTerms.size / 2))
  const onTopic = new Set<number>()
  let anyHeld = false
  for (const source of sources) {
    // A page's title and slug usually name its subject: its text is read only when they fall short.
    const held = new Set<string>()
    const hold = (text: string) => {
      for (const term of contentTerms(text)) if (topicTerms.has(term)) held.add(term)
    }
    hold(`${source.title} ${urlPathWords(source.url)}`)
    if (held.size < needed) hold(source.text)
    if (held.size > 0) anyHeld = true
    if (held.size >= needed) onTopic.add(source.id)
  }
  return anyHeld ? onTopic : every()
}

/** The words of a URL's path ("/ai-agents/long-runs": "ai agents long runs"): a slug names its page. */
function urlPathWords(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname).replace(/[/_.-]+/g, ' ')
  } catch {
    return ''
  }
}
