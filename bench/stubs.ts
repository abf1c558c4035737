// The providers the benchmark runs Sextant against: the test stubs of Exa and OpenAI with fixed
// latencies. The planner returns as many distinct queries as the engine asks for (and new ones in a
// follow-up round), and every query finds its own pages, so a run does all the work its depth implies.
// Most of a query's pages are the same every time it is asked and some are new, as on the real web:
// a second run on a topic skips the pages memory has read and pays only for what is new.
import type { ProviderCall } from '#bench/measure.ts'
import { STUB_EXA_API_KEY, type StubExa, type StubExaDocument, startStubExa } from '#test/support/stub-exa.ts'
import { defaultReply, type StubOpenAi, type StubReply, startStubOpenAi } from '#test/support/stub-openai.ts'

export type BenchStubs = {
  exa: StubExa
  openai: StubOpenAi
  env: Record<string, string>
  /** The provider calls made for a topic (every prompt and query of a run names its topic). */
  callsFor: (topic: string) => ProviderCall[]
  /** What the stubs served for a topic: model tokens, searches and results. */
  servedFor: (topic: string) => { promptTokens: number; completionTokens: number; searches: number; results: number }
  close: () => Promise<void>
}

/** Of each query's pages, this share is the same every time the query is asked. */
const STABLE_SHARE = 0.6

export async function startBenchStubs(latency: { modelMs: number; searchMs: number }): Promise<BenchStubs> {
  const asked = new Map<string, number>()
  const exa = await startStubExa({
    latencyMs: latency.searchMs,
    results(body) {
      const times = asked.get(body.query) ?? 0
      asked.set(body.query, times + 1)
      return pagesFor(body.query, body.numResults ?? 10, times)
    },
  })
  const openai = await startStubOpenAi({ latencyMs: latency.modelMs, reply: benchReply })
  const ofTopic = (topic: string) => (text: string | undefined) => text === topic || !!text?.startsWith(`${topic} `)

  return {
    exa,
    openai,
    env: {
      EXA_API_KEY: STUB_EXA_API_KEY,
      EXA_BASE_URL: exa.url,
      OPENAI_API_KEY: openai.apiKey,
      OPENAI_BASE_URL: openai.baseUrl,
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
      return {
        promptTokens: completions.reduce((total, call) => total + call.promptTokens, 0),
        completionTokens: completions.reduce((total, call) => total + call.completionTokens, 0),
        searches: searches.length,
        results: searches.reduce((total, call) => total + call.results, 0),
      }
    },
    async close() {
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

function pagesFor(query: string, count: number, times: number): StubExaDocument[] {
  const slug = query.toLowerCase().replace(/[^a-z0-9]+/g, '-')
  const stable = Math.ceil(count * STABLE_SHARE)
  const publishedDate = new Date(Date.now() - 86_400_000).toISOString()
  return Array.from({ length: count }, (_, i) => {
    // Pages past the stable share are new each time the query is asked.
    const page = i < stable ? `${i}` : `${times}-${i}`
    return {
      url: `https://site${i}.bench.example/${slug}/${page}`,
      title: `${query}: page ${page}`,
      publishedDate,
      text: pageText(query, page),
    }
  })
}

const SENTENCE =
  'The report describes measured results, the methods behind them, what changed since the last release, and what remains uncertain. '

/** About 6,000 characters: the longest text a deep run asks for; the stub trims it to maxCharacters. */
function pageText(query: string, page: string): string {
  return `${query}, page ${page}. ${SENTENCE.repeat(45)}`
}
