// The search provider (Exa, through the real exa-js client) answering 429, 500, garbage or never,
// at the level of a whole run: a fault that passes is retried and the run completes; one that lasts
// fails the run cleanly, with an error naming Exa that a user can act on. Either way the run's log
// has no doubled step, and the topic's memory loads intact: unchanged by a failed run, added to
// once by a completed one. (Single provider calls: test/search-providers.test.ts.)
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { TestApp } from '#test/support/app.ts'
import { type BaselineApp, pageFeed, startWithBaseline } from '#test/support/provider-app.ts'
import { expectRunIntegrity, loadIntactMemory, memoryFingerprint } from '#test/support/run-integrity.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import type { StubExa, StubExaBehaviour } from '#test/support/stub-exa.ts'

const TOPIC = 'Sodium-ion batteries'

// Each test adds a page, so each run has something new to read, synthesize and save.
const feed = pageFeed(TOPIC, 'search')
let stubs: BaselineApp
let app: TestApp
let exa: StubExa
let user: BaselineApp['user']

beforeAll(async () => {
  stubs = await startWithBaseline(TOPIC, feed)
  ;({ app, exa, user } = stubs)
})
afterAll(() => stubs.stop())

type Scenario = { behaviour: StubExaBehaviour; times?: number; ends: 'complete' | 'failed' }

// `times` counts requests across the run's three parallel queries; retries see normal answers after.
const scenarios: Record<string, Scenario> = {
  '429 twice, then answers': { behaviour: 'rate-limit', times: 2, ends: 'complete' },
  // A rated provider is waited for until the run's time limit; the run then fails naming it.
  '429 on every request': { behaviour: 'rate-limit', ends: 'failed' },
  '500 twice, then answers': { behaviour: 'server-error', times: 2, ends: 'complete' },
  '500 on every request': { behaviour: 'server-error', ends: 'failed' },
  'garbage for one query (not retried), the others answer': { behaviour: 'garbage', times: 1, ends: 'complete' },
  'garbage on every request': { behaviour: 'garbage', ends: 'failed' },
  'no answer once, then answers': { behaviour: 'hang', times: 1, ends: 'complete' },
  'no answer ever': { behaviour: 'hang', ends: 'failed' },
}

for (const [name, scenario] of Object.entries(scenarios)) {
  test(`search provider ${name}: the run ends ${scenario.ends}, its log and memory intact`, async () => {
    feed.publish()
    const before = memoryFingerprint(await loadIntactMemory(app.memory, user.account.id, TOPIC))
    exa.setBehaviour(scenario.behaviour, { times: scenario.times, retryAfterSeconds: 0 })
    let runId: string
    try {
      const { body } = await postBrief(app.fetch, user.auth, { topic: TOPIC, depth: 'quick' })
      runId = body.runId
      const done = await waitForRun(app.fetch, user.auth, runId)
      expect(done.status, JSON.stringify(done.error)).toBe(scenario.ends)
      if (scenario.ends === 'failed') {
        expect(done.report).toBeUndefined()
        expect(done.error?.code).toBe('exa_unavailable')
        // Says which provider and what happened, in a sentence, not a stack.
        expect(done.error?.message).toMatch(/^exa: .*(Exa|answer|429|500|rate|results|within)/i)
        expect(done.error?.message).not.toMatch(/\n\s+at /)
        // Out of time while Exa refused: the error says so, not only that the run was slow.
        if (scenario.behaviour === 'rate-limit') expect(done.error?.message).toMatch(/kept answering 429/)
      } else {
        expect(done.report?.generatedWith.search).toBe('exa')
      }
    } finally {
      exa.setBehaviour('answer')
    }
    await expectRunIntegrity(app.db, runId)
    const after = memoryFingerprint(await loadIntactMemory(app.memory, user.account.id, TOPIC))
    if (scenario.ends === 'failed') {
      expect(after).toEqual(before)
    } else {
      // Added to once: everything that was there still is, and this run is in the history once.
      for (const fact of before?.facts ?? []) expect(after?.facts).toContain(fact)
      for (const url of before?.ledger ?? []) expect(after?.ledger).toContain(url)
      expect(after?.runs.filter((id) => id === runId)).toHaveLength(1)
    }
  })
}
