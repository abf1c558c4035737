// A run reads the same pages, attributed to the same queries, whatever order its searches happen
// to answer in: the order of the plan decides, not network timing.
import { setTimeout as sleep } from 'node:timers/promises'
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { batchedWriter } from '#server/events/batched-writes.ts'
import type { SearchProvider, SearchResult } from '#server/providers/types.ts'
import { type PageTexts, pageTexts } from '#server/research/passages.ts'
import type { EngineDeps } from '#server/research/pipeline.ts'
import type { StepContext, StepInput } from '#server/research/run-context.ts'
import { searchStep } from '#server/research/step-search.ts'
import { BriefSchema } from '#server/vocabulary/brief.ts'

const RUNS = Number(process.env.FUZZ_RUNS ?? 25)
const QUERIES = ['grid batteries', 'grid batteries cost', 'grid batteries china']

/** Pages per query: some only that query finds, and one every query finds, each with its own snippet. */
function resultsOf(query: string): SearchResult[] {
  const slug = query.replaceAll(' ', '-')
  return [
    { url: `https://news.example/${slug}`, title: query, publishedDate: null, text: `Only ${query} finds this.` },
    { url: 'https://shared.example/report', title: 'Shared', publishedDate: null, text: `As ${query} saw it.` },
    { url: `https://blog.example/${slug}/2`, title: query, publishedDate: null, text: `Also ${query}.` },
  ]
}

/** A search provider answering each query after its own delay (ms), as the network might. */
function searchAnswering(delays: number[]): SearchProvider {
  return {
    name: 'stub',
    async search(query) {
      await sleep(delays[QUERIES.indexOf(query.text)] ?? 0)
      return { results: resultsOf(query.text) }
    },
  }
}

async function searchWith(delays: number[]) {
  const input: StepInput<'search'> = {
    load_memory: { baseline: true, since: null, ledger: [] },
    plan: { queries: QUERIES, fallback: false, usage: { inputTokens: 0, outputTokens: 0 } },
  }
  const events: Array<Record<string, unknown>> = []
  const output = await searchStep({
    deps: { search: searchAnswering(delays), maxTokens: 1_000_000 } as unknown as EngineDeps,
    runId: 'run',
    accountId: 'account',
    brief: BriefSchema.parse({ topic: 'grid batteries', depth: 'quick' }),
    input,
    signal: new AbortController().signal,
    written: Promise.resolve(),
    texts: pageTexts(),
    event: async (_type, _step, data) => events.push(data),
    flush: () => undefined,
  })
  return { output, events }
}

/** A deep run's search step on `plan`, the follow-up plan answering `followUp()`. */
function deepSearch(
  plan: string[],
  context: Pick<StepContext, 'texts' | 'event' | 'flush'> & { search: SearchProvider; followUp: () => string[] },
) {
  const { search, followUp, ...rest } = context
  return searchStep({
    deps: {
      search,
      maxTokens: 1_000_000,
      model: {
        kind: 'model',
        plan: async () => ({ plan: { queries: followUp() }, usage: { inputTokens: 0, outputTokens: 0 } }),
      },
    } as unknown as EngineDeps,
    runId: 'run',
    accountId: 'account',
    brief: BriefSchema.parse({ topic: 'grid batteries', depth: 'deep' }),
    input: {
      load_memory: { baseline: true, since: null, ledger: [] },
      plan: { queries: plan, fallback: false, usage: { inputTokens: 0, outputTokens: 0 } },
    },
    signal: new AbortController().signal,
    written: Promise.resolve(),
    ...rest,
  })
}

// Each case waits out its delays (up to 15 ms): FUZZ_RUNS=1000 takes about ten seconds.
test('the pages found, their order and the query each is read for do not depend on which search answered first', {
  timeout: 5_000 + RUNS * 30,
}, async () => {
  const inOrder = await searchWith([0, 0, 0])
  // Later queries in the plan win a page they share, as when the searches answer in order.
  expect(inOrder.output.sources.map((source) => [source.url, source.query])).toEqual([
    ['https://news.example/grid-batteries', 'grid batteries'],
    ['https://shared.example/report', 'grid batteries china'],
    ['https://blog.example/grid-batteries/2', 'grid batteries'],
    ['https://news.example/grid-batteries-cost', 'grid batteries cost'],
    ['https://blog.example/grid-batteries-cost/2', 'grid batteries cost'],
    ['https://news.example/grid-batteries-china', 'grid batteries china'],
    ['https://blog.example/grid-batteries-china/2', 'grid batteries china'],
  ])
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 15 }), { minLength: 3, maxLength: 3 }), async (delays) => {
      const { output, events } = await searchWith(delays)
      expect(output.sources).toEqual(inOrder.output.sources)
      expect(output.queries).toEqual(QUERIES)
      // Each page is counted new once, by whichever query saw it first.
      expect(events.reduce((sum, event) => sum + (event.new as number), 0)).toBe(7)
    }),
    { numRuns: RUNS },
  )
})

test("a deep run's first queries' pages are made ready for the follow-up plan while round one's last searches are awaited", async () => {
  const plan = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6']
  const pageText = (query: string, n: number) =>
    Array.from(
      { length: 6 },
      (_, p) => `Grid batteries ${query} page ${n} paragraph ${p} says storage costs fell.`,
    ).join('\n\n')
  // Eight pages a query; the last three queries answer late, so idle time can reach the first three's.
  const search: SearchProvider = {
    name: 'stub',
    async search(query) {
      if (plan.indexOf(query.text) >= 3) await sleep(200)
      return {
        results: Array.from({ length: 8 }, (_, n) => ({
          url: `https://${query.text}.example/${n}`,
          title: `${query.text} ${n}`,
          publishedDate: null,
          text: pageText(query.text, n),
        })),
      }
    },
  }
  // What was prepared, and when each search's query_done came, in one order.
  const seen: string[] = []
  const memo = pageTexts()
  const texts: PageTexts = {
    words: (text) => memo.words(text),
    passages: (text, size) => {
      if (size === 150) seen.push(`follow-up size: ${text.slice(0, text.indexOf(' page '))}`)
      return memo.passages(text, size)
    },
  }
  await deepSearch(plan, {
    search,
    followUp: () => ['q7'],
    texts,
    event: async (type, _step, data) => void (type === 'query_done' && seen.push(`done: ${data?.query}`)),
    flush: () => undefined,
  })
  const lastDone = seen.indexOf('done: q6')
  const early = seen.slice(0, lastDone)
  // The follow-up plan reads round one's first 24 pages: the first three queries' eight each.
  for (const query of ['q1', 'q2', 'q3']) {
    expect(early.filter((entry) => entry === `follow-up size: Grid batteries ${query}`)).toHaveLength(8)
  }
  // Pages it does not read are not made ready for it (nor later, once idle time reaches them).
  await sleep(50)
  expect(seen.some((entry) => /follow-up size: Grid batteries q[4-7]/.test(entry))).toBe(false)
})

test("a round's query_done events wait for the boundary after it; a follow-up plan is asked only once they are written", async () => {
  // The run's one writer, as the pipeline makes it, with a linger no test outlasts: what is written
  // before the step returns was sent without waiting for the boundary.
  const statements: string[][] = []
  const writer = batchedWriter(
    async (items: string[]) => {
      statements.push(items)
    },
    { lingerMs: 60_000 },
  )
  const plan = ['q1', 'q2', 'q3', 'q4']
  let planAsked: string[][] | undefined
  const output = await deepSearch(plan, {
    search: searchAnswering([0, 5, 10, 15]),
    followUp: () => {
      planAsked = statements.map((items) => [...items])
      return ['q5']
    },
    texts: pageTexts(),
    event: (type, _step, data, options) => writer.write(`${type} ${data.query}`, options),
    flush: writer.flush,
  })
  expect(output.queries).toEqual([...plan, 'q5'])
  // Round one's events were written, together, before the follow-up plan was asked.
  expect(planAsked).toEqual([plan.map((query) => `query_done ${query}`)])
  // The follow-up round's event still waits: the boundary after the step takes it.
  expect(statements).toHaveLength(1)
  void writer.write('boundary')
  await writer.settled()
  expect(statements.at(-1)).toEqual(['query_done q5', 'boundary'])
})
