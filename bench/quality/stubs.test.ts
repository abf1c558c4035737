import { afterAll, beforeAll, expect, test } from 'vitest'
import { type QualityStubs, startQualityStubs } from '#bench/quality/stubs.ts'
import { generateWeb } from '#bench/quality/web.ts'
import { createExaSearch } from '#server/providers/search/exa.ts'
import { fallbackPlan } from '#server/research/fallback-plan.ts'
import { STUB_EXA_API_KEY } from '#test/support/stub-exa.ts'

let stubs: QualityStubs
beforeAll(async () => {
  stubs = await startQualityStubs()
})
afterAll(() => stubs.close())

test("each query gets the pages of its place in the plan, whatever order a round's searches arrive in", async () => {
  const web = generateWeb({ seed: 3, factsPerTopic: 20, topicSuffix: ' seed 3' })
  stubs.use(web)
  // The epoch that serves the most pages, so the windows differ (a round of 6 x 8 wraps around it).
  const [topic, epoch] =
    web.topics
      .flatMap((each) => each.epochs.map((_, index) => [each, index + 1] as const))
      .sort(([a, x], [b, y]) => (b.epochs[y - 1]?.served.length ?? 0) - (a.epochs[x - 1]?.served.length ?? 0))[0] ?? []
  if (!topic || !epoch) throw new Error('no topic')
  const pages = topic.epochs[epoch - 1]?.served ?? []
  expect(pages.length).toBeGreaterThan(8)
  const exa = createExaSearch({ apiKey: STUB_EXA_API_KEY, baseUrl: stubs.exa.url, timeoutMs: 5000 })
  const extractive = fallbackPlan({
    topic: topic.topic,
    focus: [],
    depth: 'deep',
    timeframe: 'any time',
    knownFacts: [],
    maxQueries: 6,
  }).queries
  const model = [1, 2, 3, 4, 5, 6].map((i) => `${topic.topic} angle ${i}`)
  for (const plan of [extractive, model]) {
    const served = async (order: string[]) => {
      stubs.setEpoch(topic.topic, epoch)
      const answers = new Map<string, string[]>()
      await Promise.all(
        order.map(async (text) => {
          const { results } = await exa.search(
            { text, numResults: 8, maxCharacters: 100 },
            { signal: AbortSignal.timeout(5000) },
          )
          answers.set(
            text,
            results.map((result) => result.url),
          )
        }),
      )
      return plan.map((text) => answers.get(text))
    }
    const inOrder = await served(plan)
    expect(await served([...plan].reverse())).toEqual(inOrder)
    // Round one's windows tile the epoch: every page it serves is found.
    expect(new Set(inOrder.flat())).toEqual(new Set(pages))
  }
})
