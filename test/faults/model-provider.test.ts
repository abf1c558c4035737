// The model provider (an OpenAI-compatible server, through the real openai client) answering 429,
// 500, garbage or never, at the level of a whole run. Planning falls back to the deterministic plan
// (spec 7.3) when the model cannot plan, so the run completes; synthesis retries what passes and
// otherwise writes the report without the model (the searches are paid for), labelled, with a warning
// naming the server and what went wrong. Every run completes; its log has no doubled step and the
// topic's memory loads intact. (Single calls: test/openai-model.test.ts.)
import { afterAll, beforeAll, expect, test } from 'vitest'
import { readRunEvents } from '#server/runs/event-log.ts'
import { eventDataColumn } from '#server/runs/repository/event-data.ts'
import type { TestApp } from '#test/support/app.ts'
import { type BaselineApp, pageFeed, startWithBaseline } from '#test/support/provider-app.ts'
import { expectRunIntegrity, loadIntactMemory, memoryFingerprint } from '#test/support/run-integrity.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import type { StubOpenAi, StubReply } from '#test/support/stub-openai.ts'

const TOPIC = 'Solid-state battery roadmap'

// Each test adds a page, so each run has something new to read, synthesize and save.
const feed = pageFeed(TOPIC, 'model')
let stubs: BaselineApp
let app: TestApp
let openai: StubOpenAi
let user: BaselineApp['user']

beforeAll(async () => {
  stubs = await startWithBaseline(TOPIC, feed)
  ;({ app, openai, user } = stubs)
})
afterAll(() => stubs.stop())

type Scenario = {
  call: 'plan' | 'synthesize'
  /** The answers to the next calls of that kind, in order; then the stub answers normally. */
  replies: StubReply[]
  plan?: 'model' | 'fallback'
  /** Who wrote the report: the model, or the extractive synthesizer when the model never answered usably. */
  writer?: 'model' | 'extractive'
}

const rateLimited: StubReply = {
  status: 429,
  headers: { 'retry-after': '0' },
  error: { message: 'Rate limit reached' },
}
const serverError: StubReply = { status: 500, error: { message: 'The server had an error' } }
const garbage: StubReply = { garbage: '{"id": "chatcmpl-1", "choices": [' }
// More than the three attempts a call gets: the rest are dropped after the test.
const always = (reply: StubReply) => Array.from({ length: 5 }, () => reply)

const scenarios: Record<string, Scenario> = {
  'plan: 429 once, then answers': { call: 'plan', replies: [rateLimited], plan: 'model' },
  'plan: 500 on every attempt': { call: 'plan', replies: always(serverError), plan: 'fallback' },
  'plan: garbage': { call: 'plan', replies: [garbage], plan: 'fallback' },
  'plan: no answer ever': { call: 'plan', replies: always('hang'), plan: 'fallback' },
  'synthesis: 429 once, then answers': { call: 'synthesize', replies: [rateLimited] },
  // More 429s than a call's three attempts: a rated provider is waited for while the run has time
  // (issue 42, item 2), and the model writes once it answers.
  'synthesis: 429 five times, then answers': {
    call: 'synthesize',
    replies: always(rateLimited),
    writer: 'model',
  },
  'synthesis: 500 twice, then answers': { call: 'synthesize', replies: [serverError, serverError] },
  'synthesis: 500 on every attempt': {
    call: 'synthesize',
    replies: always(serverError),
    writer: 'extractive',
  },
  'synthesis: garbage (not retried)': {
    call: 'synthesize',
    replies: [garbage],
    writer: 'extractive',
  },
  'synthesis: no answer once, then answers': { call: 'synthesize', replies: ['hang'] },
  'synthesis: no answer ever': { call: 'synthesize', replies: always('hang'), writer: 'extractive' },
}

for (const [name, scenario] of Object.entries(scenarios)) {
  test(`model provider ${name}: the run completes (${scenario.writer ?? 'model'} report), its log and memory intact`, async () => {
    feed.publish()
    const before = memoryFingerprint(await loadIntactMemory(app.memory, user.account.id, TOPIC))
    if (scenario.call === 'plan') openai.onPlan(...scenario.replies)
    else openai.onSynthesize(...scenario.replies)
    let runId: string
    try {
      const { body } = await postBrief(app.fetch, user.auth, { topic: TOPIC, depth: 'quick' })
      runId = body.runId
      const done = await waitForRun(app.fetch, user.auth, runId)
      expect(done.status, JSON.stringify(done.error)).toBe('complete')
      // A synthesis the model never delivers is written without it, labelled, and not lost.
      expect(done.report?.generatedWith).toMatchObject({
        synthesisKind: scenario.writer ?? 'model',
        plan: scenario.plan ?? 'model',
      })
      const events = await readRunEvents(app.db, eventDataColumn(app.ring), runId, 0)
      const warnings = events.filter((event) => event.type === 'warning')
      const fellBack = warnings.some((warning) => warning.data.code === 'fallback_plan')
      expect(fellBack).toBe(scenario.plan === 'fallback')
      const wroteWithout = warnings.find((warning) => warning.data.code === 'extractive_fallback')
      expect(wroteWithout !== undefined).toBe(scenario.writer === 'extractive')
      if (wroteWithout) {
        // Names the server (or the model, for an unreadable answer) and what went wrong, not a stack.
        expect(wroteWithout.data.message).toMatch(/127\.0\.0\.1|gpt-4\.1-mini/)
        expect(wroteWithout.data.message).not.toMatch(/\n\s+at /)
      }
    } finally {
      openai.reset()
    }
    await expectRunIntegrity(app.db, runId)
    const after = memoryFingerprint(await loadIntactMemory(app.memory, user.account.id, TOPIC))
    for (const fact of before?.facts ?? []) expect(after?.facts).toContain(fact)
    for (const url of before?.ledger ?? []) expect(after?.ledger).toContain(url)
    expect(after?.runs.filter((id) => id === runId)).toHaveLength(1)
  })
}
