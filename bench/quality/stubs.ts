// The providers of the quality benchmark: the Exa stub serving the synthetic web, and the OpenAI stub
// answering as the sloppy model. A search for a topic returns `numResults` URLs of the topic's current
// epoch (its new pages, shuffled, plus a few URLs of earlier epochs), wrapping around, from the place
// its query has in the plan: the nth query gets the nth window, so a deep run's first round of 6
// queries x 8 results (48) reads every page of an epoch that serves at most 48 URLs (the scenario
// checks that it does). By the plan's order, not the order the searches arrive in: a round's searches
// go out together, and which reaches the stub first varies from run to run, which made the figures
// vary with it (once in about twenty runs; decision 018).

import { createOracleModel } from '#bench/quality/oracle-model.ts'
import {
  createSloppyModel,
  emptyLog,
  emptyTrace,
  type ModelTrace,
  type SloppyLog,
} from '#bench/quality/sloppy-model.ts'
import type { Page, Web } from '#bench/quality/web.ts'
import { fallbackPlan } from '#server/research/fallback-plan.ts'
import { DEPTH } from '#server/research/run-context.ts'
import { STUB_EXA_API_KEY, type StubExa, type StubExaDocument, startStubExa } from '#test/support/stub-exa.ts'
import { type StubOpenAi, startStubOpenAi } from '#test/support/stub-openai.ts'

export type QualityStubs = {
  exa: StubExa
  openai: StubOpenAi
  /** The model that answers right (bench/quality/oracle-model.ts): what the pipeline itself loses. */
  oracle: StubOpenAi
  log: SloppyLog
  /** What the model did to each claim and what its judge saw, to explain mistakes. */
  trace: ModelTrace
  /** Server settings for each path: search and the sloppy model, search only, search and the oracle. */
  env: { model: Record<string, string>; extractive: Record<string, string>; oracle: Record<string, string> }
  /** Serves this web from now on; its seed also seeds the model's sloppiness. */
  use: (web: Web) => void
  /** The epoch whose pages the next searches for a topic return (1-based). */
  setEpoch: (topic: string, epoch: number) => void
  /** The URLs served for a topic since the last call. */
  takeServed: (topic: string) => string[]
  close: () => Promise<void>
}

/**
 * `fallback`: the extractive path's plan for the topic; `unplanned`: queries of no known plan, given
 * windows after the plans' in the order they arrive.
 */
type TopicState = { epoch: number; fallback: string[]; unplanned: string[]; served: Set<string> }

/** Where the sloppy model's queries stand: round one's "angle i", then the follow-up's "open question i". */
const MODEL_QUERY = /^(?:angle|open question) (\d+)$/
const ROUND_ONE = DEPTH.deep.queries
/** Past any planned query's place. */
const UNPLANNED = 1000

/**
 * The query's place in its run's plan: the fallback plan's order for the extractive path
 * (server/research/fallback-plan.ts), the sloppy model's numbering for the model path.
 */
function planPlace(topic: string, query: string, state: TopicState): number {
  const rest = query.slice(topic.length).trim()
  const numbered = MODEL_QUERY.exec(rest)
  if (numbered) return (rest.startsWith('angle') ? 0 : ROUND_ONE) + Number(numbered[1]) - 1
  const place = state.fallback.indexOf(query)
  if (place >= 0) return place
  if (!state.unplanned.includes(query)) state.unplanned.push(query)
  return UNPLANNED + state.unplanned.indexOf(query)
}

export async function startQualityStubs(): Promise<QualityStubs> {
  let web: Web | undefined
  let pages = new Map<string, Page>()
  const topics = new Map<string, TopicState>()
  const log = emptyLog()
  const trace = emptyTrace()
  let model = createSloppyModel({ seed: 0, knowledge: () => knowledgeOf(web), log, trace })

  const exa = await startStubExa({
    results(body) {
      const topic = web?.topics
        .filter((candidate) => body.query === candidate.topic || body.query.startsWith(`${candidate.topic} `))
        .sort((a, b) => b.topic.length - a.topic.length)[0]
      const state = topic && topics.get(topic.topic)
      const urls = topic && state ? (topic.epochs[state.epoch - 1]?.served ?? []) : []
      if (!state || urls.length === 0) return []
      const count = Math.min(body.numResults ?? 10, urls.length)
      const start = planPlace(topic.topic, body.query, state) * count
      const results: StubExaDocument[] = []
      for (let i = 0; i < count; i++) {
        const page = pages.get(urls[(start + i) % urls.length] as string) as Page
        state.served.add(page.url)
        results.push({ url: page.url, title: page.title, publishedDate: null, text: page.text })
      }
      return results
    },
  })
  const openai = await startStubOpenAi({ reply: (request) => model(request) })
  const oracleModel = createOracleModel({ knowledge: () => knowledgeOf(web), log, trace })
  const oracle = await startStubOpenAi({ reply: (request) => oracleModel(request) })
  // The stubs take any rate: the shared turns are counted, never waited for.
  const rates = { EXA_REQUESTS_PER_SECOND: '10000', OPENAI_REQUESTS_PER_MINUTE: '1000000' }
  const search = { EXA_API_KEY: STUB_EXA_API_KEY, EXA_BASE_URL: exa.url, ...rates }
  return {
    exa,
    openai,
    oracle,
    log,
    trace,
    env: {
      model: { ...search, OPENAI_API_KEY: openai.apiKey, OPENAI_BASE_URL: openai.baseUrl },
      extractive: search,
      oracle: { ...search, OPENAI_API_KEY: oracle.apiKey, OPENAI_BASE_URL: oracle.baseUrl },
    },
    use(next) {
      web = next
      pages = new Map(
        next.topics.flatMap((topic) => topic.epochs.flatMap((epoch) => epoch.pages.map((page) => [page.url, page]))),
      )
      model = createSloppyModel({ seed: next.seed, knowledge: () => knowledgeOf(web), log, trace })
    },
    setEpoch(topic, epoch) {
      const fallback = fallbackPlan({ topic, focus: [], depth: 'deep', timeframe: '', knownFacts: [], maxQueries: 20 })
      topics.set(topic, {
        epoch,
        fallback: fallback.queries,
        unplanned: [],
        served: topics.get(topic)?.served ?? new Set(),
      })
    },
    takeServed(topic) {
      const state = topics.get(topic)
      const served = [...(state?.served ?? [])]
      state?.served.clear()
      return served
    },
    async close() {
      await Promise.all([exa.close(), openai.close(), oracle.close()])
    },
  }
}

function knowledgeOf(web: Web | undefined) {
  if (!web) throw new Error('the quality stubs serve no web yet')
  return { facts: web.facts, registry: web.registry }
}
