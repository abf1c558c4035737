// The providers the benchmark runs Sextant against: the test stubs of Exa and OpenAI with fixed
// latencies, in the stub process (bench/stub-process.ts). The planner returns as many distinct
// queries as the engine asks for (and new ones in a follow-up round), and every query finds its own
// pages, so a run does all the work its depth implies.
// Most of a query's pages are the same every time it is asked and some are new, as on the real web:
// a second run on a topic skips the pages memory has read and pays only for what is new.
import { type LimitedFront, startLimitedFront } from '#bench/limited-stubs.ts'
import type { ProviderCall } from '#bench/measure.ts'
import { createRng } from '#bench/quality/rng.ts'
import type { LimitStats, ProviderLimits, Served } from '#bench/stub-protocol.ts'
import { STUB_EXA_API_KEY, type StubExaDocument, startStubExa } from '#test/support/stub-exa.ts'
import { defaultReply, type StubReply, startStubOpenAi } from '#test/support/stub-openai.ts'

export type ProviderStubs = {
  env: Record<string, string>
  /** The provider calls made for a topic (every prompt and query of a run names its topic). */
  callsFor: (topic: string) => ProviderCall[]
  /** What the stubs served for a topic: model tokens, searches and results. */
  servedFor: (topic: string) => Served
  /** Of each query's pages on `topic`, this share is new each time it is asked (default 0.4). */
  setNewShare: (topic: string, share: number, restating?: boolean) => void
  /** With limits: what their fronts saw and the stubs behind them served; null without. */
  limitStats: () => LimitStats | null
  close: () => Promise<void>
}

/** Of each query's pages, this share is new each time the query is asked, unless a topic sets its own. */
const NEW_SHARE = 0.4

/**
 * The stubs with their latencies; with `limits`, each behind a front that enforces them
 * (bench/limited-stubs.ts), and the settings point Sextant at the fronts.
 */
export async function startProviderStubs(
  latency: { modelMs: number; searchMs: number },
  limits?: ProviderLimits,
): Promise<ProviderStubs> {
  const asked = new Map<string, number>()
  const newShares = new Map<string, { share: number; restating: boolean }>()
  // A topic's own share draws its pages by the query without the topic, so every benchmark run (whose
  // topics differ) replaces the same pages.
  const noveltyOf = (query: string) => {
    const own = [...newShares].find(([topic]) => query === topic || query.startsWith(`${topic} `))
    return own ? { ...own[1], seed: query.slice(own[0].length) } : { share: NEW_SHARE, restating: false, seed: query }
  }
  const exa = await startStubExa({
    latencyMs: latency.searchMs,
    results(body) {
      const times = asked.get(body.query) ?? 0
      asked.set(body.query, times + 1)
      return pagesFor(body.query, body.numResults ?? 10, times, noveltyOf(body.query))
    },
  })
  const openai = await startStubOpenAi({ latencyMs: latency.modelMs, reply: benchReply })
  const ofTopic = (topic: string) => (text: string | undefined) => text === topic || !!text?.startsWith(`${topic} `)
  const fronts: { search: LimitedFront; model: LimitedFront } | undefined = limits && {
    search: await startLimitedFront({
      upstream: exa.url,
      wire: 'exa',
      limit: { kind: 'window', limit: limits.searchPerSecond, windowMs: 1000 },
    }),
    model: await startLimitedFront({
      upstream: openai.url,
      wire: 'openai',
      limit: { kind: 'concurrency', limit: limits.modelConcurrency },
    }),
  }

  return {
    env: {
      EXA_API_KEY: STUB_EXA_API_KEY,
      EXA_BASE_URL: fronts?.search.url ?? exa.url,
      OPENAI_API_KEY: openai.apiKey,
      OPENAI_BASE_URL: fronts ? `${fronts.model.url}/v1` : openai.baseUrl,
      // The stubs take any rate: the shared turns are counted, never waited for.
      EXA_REQUESTS_PER_SECOND: '10000',
      OPENAI_REQUESTS_PER_MINUTE: '1000000',
    },
    callsFor(topic) {
      const mine = ofTopic(topic)
      return [
        ...openai.served
          .filter((call) => ofRun(call, topic))
          .map((call) => ({ kind: 'model' as const, startedAt: call.startedAt, endedAt: call.endedAt })),
        ...exa.served
          .filter((call) => mine(call.query))
          .map((call) => ({ kind: 'search' as const, startedAt: call.startedAt, endedAt: call.endedAt })),
      ]
    },
    servedFor(topic) {
      const mine = ofTopic(topic)
      const completions = openai.served.filter((call) => ofRun(call, topic))
      const searches = exa.served.filter((call) => mine(call.query))
      const byKind: Record<string, number> = {}
      for (const call of completions)
        byKind[call.kind] = (byKind[call.kind] ?? 0) + call.promptTokens + call.completionTokens
      return {
        promptTokens: completions.reduce((total, call) => total + call.promptTokens, 0),
        completionTokens: completions.reduce((total, call) => total + call.completionTokens, 0),
        byKind,
        searches: searches.length,
        results: searches.reduce((total, call) => total + call.results, 0),
      }
    },
    setNewShare(topic, share, restating = false) {
      newShares.set(topic, { share, restating })
    },
    limitStats() {
      if (!fronts) return null
      const modelServedByKind: Record<string, number> = {}
      for (const call of openai.served) modelServedByKind[call.kind] = (modelServedByKind[call.kind] ?? 0) + 1
      return {
        search: fronts.search.stats(),
        model: fronts.model.stats(),
        searchesServed: exa.served.length,
        modelServedByKind,
      }
    },
    async close() {
      await Promise.all([fronts?.search.close(), fronts?.model.close()])
      await Promise.all([exa.close(), openai.close()])
    },
  }
}

/**
 * A model call of the run on `topic`: prompts name it on their `Topic:` line; embedding requests have
 * no prompt, but embed claims quoted from pages that start with a query, which starts with the topic.
 */
function ofRun(call: { kind: string; topic?: string; text?: string }, topic: string): boolean {
  return (
    call.topic === topic ||
    (call.kind === 'embed' && (call.text ?? '').split('\n').some((text) => text.startsWith(`${topic} `)))
  )
}

/** Plans name the topic first in every query, so each search can be traced to its run. */
function benchReply(request: Parameters<typeof defaultReply>[0]): StubReply {
  if (request.kind !== 'plan') return defaultReply(request)
  const topic = /^Topic: (.+)$/m.exec(request.text)?.[1] ?? 'the topic'
  const count = Number(/Return at most (\d+) queries/.exec(request.text)?.[1] ?? 3)
  const angle = request.text.includes('This is a follow-up round') ? 'open question' : 'angle'
  return { content: { queries: Array.from({ length: count }, (_, i) => `${topic} ${angle} ${i + 1}`) } }
}

export function pagesFor(
  query: string,
  count: number,
  times: number,
  novelty: { share: number; restating?: boolean; seed: string },
): StubExaDocument[] {
  const slug = query.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  const publishedDate = new Date(Date.now() - 86_400_000).toISOString()
  return Array.from({ length: count }, (_, i) => {
    // Each time the query is asked again, each of its pages is replaced by a new one with the given
    // chance (drawn from the query, so the same every run of the benchmark).
    const fresh = times > 0 && createRng(novelty.seed, i, times).chance(novelty.share)
    const page = fresh ? `${times}-${i}` : `${i}`
    return {
      url: `https://site${i}.bench.example/${slug}/${page}`,
      title: `${query}: page ${page}`,
      publishedDate,
      text: fresh && novelty.restating ? restatingText(query, `${i}`) : pageText(query, page),
    }
  })
}

const SUBJECTS = [
  'The operator',
  'A regional utility',
  'The ministry',
  'An industry survey',
  'The manufacturer',
  'Analysts',
]
const VERBS = ['reported', 'estimated', 'measured', 'announced', 'expected', 'revised']
const OBJECTS = ['capacity', 'output', 'prices', 'installations', 'orders', 'jobs', 'costs', 'exports']
const PLACES = ['in Norway', 'in Texas', 'in Bavaria', 'in Ontario', 'in Gujarat', 'in Queensland', 'in Chile']

const BOILERPLATE = [
  'Subscribe to our newsletter for weekly updates delivered straight to your inbox.',
  'We use cookies to improve your experience. By continuing you accept our cookie policy.',
  'Related: ten photographs of coastal towns at dawn, and what they tell us about light.',
  'Share this story on social media or send it to a friend by email.',
  'Advertisement. Continue reading below the advertisement.',
  'Our journalism is supported by readers like you. Become a member today.',
  'Most read this week: a recipe for sourdough, a review of a thriller, the weekend weather.',
  'Comments are closed for this article. Read our community guidelines.',
]

/**
 * About 2,000 characters, as a search provider's text of an article reads: a body of 6 paragraphs on
 * the query, each opening with it (so every claim quoted from the page names its run's topic) and then
 * words drawn for this page, so no two pages carry the same text; then a few lines of the site's.
 */
function pageText(query: string, page: string): string {
  const rng = createRng(query, page)
  const body = Array.from({ length: 6 }, (_, part) => {
    const [first, second, third] = [statement(rng), statement(rng), statement(rng)]
    return `${query}, page ${page}, part ${part + 1}: ${said(first)}. ${said(second)}, and ${said(third).toLowerCase()}.`
  })
  return [...body, ...rng.shuffle(BOILERPLATE).slice(0, 3)].join('\n\n')
}

type Statement = {
  subject: string
  verb: string
  object: string
  value: number
  unit: string
  place: string
  year: number
}

function statement(rng: ReturnType<typeof createRng>): Statement {
  return {
    subject: rng.pick(SUBJECTS),
    verb: rng.pick(VERBS),
    object: rng.pick(OBJECTS),
    value: rng.int(2, 990),
    unit: rng.pick(['MW', 'units', 'percent', 'million dollars']),
    place: rng.pick(PLACES),
    year: 2020 + rng.int(0, 7),
  }
}

function said({ subject, verb, object, value, unit, place, year }: Statement): string {
  return `${subject} ${verb} ${object} of ${value} ${unit} ${place} for ${year}`
}

/**
 * A new page that only says again, in other words, what page `page` of the query led with (the
 * sentence a faithful model quotes, and so what memory holds of it): a brief that rewrites a wire
 * story, the same figure, year and place in another order and voice, with the site's furniture.
 */
function restatingText(query: string, page: string): string {
  const rng = createRng(query, page)
  const { subject, verb, object, value, unit, place, year } = statement(rng)
  const brief = `${query}, page ${page}, part 1: for ${year} ${place}, ${object} of ${value} ${unit} were ${verb} by ${subject.toLowerCase()}.`
  return [brief, ...createRng(query, page, 'restated').shuffle(BOILERPLATE).slice(0, 3)].join('\n\n')
}
