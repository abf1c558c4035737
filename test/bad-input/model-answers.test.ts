// A model's synthesis is input from outside like any other: ids out of range, empty or absent
// quotes, ten thousand claims, bytes that are not UTF-8. Each run ends with a clean report (or a clean
// failure), no answer is a 5xx, every shown claim's quote is on a page it cites, and memory stays intact.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { type ProviderApp, pageFeed, startProviderApp } from '#test/support/provider-app.ts'
import { expectRunIntegrity, loadIntactMemory } from '#test/support/run-integrity.ts'
import { expectCitationsResolve, postBrief, waitForRun } from '#test/support/runs.ts'
import type { StubReply } from '#test/support/stub-openai.ts'

const TOPIC = 'Grid batteries'
const feed = pageFeed(TOPIC, 'grid')
let stubs: ProviderApp
let user: Awaited<ReturnType<typeof createTestAccount>>

beforeAll(async () => {
  stubs = await startProviderApp({ documents: feed.documents, env: { RUN_DEADLINE_QUICK_SECONDS: '60' } })
  user = await createTestAccount(stubs.app.db)
})
afterAll(() => stubs.stop())

const QUOTE = 'Grid batteries: finding number'

function synthesis(findings: unknown[], extra: Record<string, unknown> = {}): StubReply {
  return {
    content: { headline: 'Grid batteries', findings, sections: null, implications: null, gaps: [], ...extra },
    ...('invalidUtf8Marker' in extra ? { invalidUtf8Marker: String(extra.invalidUtf8Marker) } : {}),
  }
}

const answers: Record<string, { reply: StubReply; shown: (count: number) => boolean }> = {
  'ids out of range': {
    reply: synthesis([
      { text: 'Negative id.', quote: QUOTE, sourceIds: [-1] },
      { text: 'Zero id.', quote: QUOTE, sourceIds: [0] },
      { text: 'Far id.', quote: QUOTE, sourceIds: [99, 2 ** 31] },
      { text: 'No id.', quote: QUOTE, sourceIds: [] },
    ]),
    // The quote is on the page: re-cited to it, never to an id that does not exist.
    shown: (count) => count <= 4,
  },
  'empty and blank quotes': {
    reply: synthesis([
      { text: 'Empty quote.', quote: '', sourceIds: [1] },
      { text: 'Blank quote.', quote: '   \n ', sourceIds: [1] },
      { text: '', quote: QUOTE, sourceIds: [1] },
    ]),
    shown: (count) => count === 0,
  },
  'ten thousand claims': {
    reply: synthesis(
      Array.from({ length: 10_000 }, (_, index) => ({
        text: `Claim ${index} on grid batteries.`,
        quote: QUOTE,
        sourceIds: [1],
      })),
    ),
    shown: (count) => count <= 1,
  },
  'text that is not UTF-8': {
    reply: synthesis([{ text: 'Broken @@BAD@@ text.', quote: `${QUOTE} @@BAD@@`, sourceIds: [1] }], {
      invalidUtf8Marker: '@@BAD@@',
    }),
    shown: (count) => count === 0,
  },
  'unpaired surrogates and NUL': {
    reply: synthesis([{ text: 'Lone \ud800 surrogate \u0000 here.', quote: `${QUOTE}\ud800`, sourceIds: [1] }]),
    shown: (count) => count === 0,
  },
}

for (const [name, { reply, shown }] of Object.entries(answers)) {
  test(`a synthesis with ${name}: a clean report, memory intact`, { timeout: 90_000 }, async () => {
    const { app, openai } = stubs
    feed.publish()
    openai.onSynthesize(reply)
    try {
      const { response, body } = await postBrief(app.fetch, user.auth, { topic: TOPIC, depth: 'quick' })
      expect(response.status).toBe(202)
      const done = await waitForRun(app.fetch, user.auth, body.runId, 60_000)
      expect(done.status).toBe('complete')
      const report = done.report
      if (!report) throw new Error('no report')
      expect(shown(report.integrity.shown), JSON.stringify(report.integrity)).toBe(true)
      expect(report.integrity.claims).toBeLessThanOrEqual(10_000)
      expectCitationsResolve(report)
      for (const finding of [...report.delta.newFindings, ...report.delta.updated]) {
        for (const n of finding.sources) {
          const url = report.sources.find((source) => source.n === n)?.url
          expect(feed.documents.find((doc) => doc.url === url)?.text).toContain(finding.quote)
        }
      }
      const list = await app.fetch('/api/briefs?limit=5', { headers: user.auth })
      expect(list.status).toBe(200)
      await expectRunIntegrity(app.db, body.runId)
      await loadIntactMemory(app.memory, user.account.id, TOPIC)
    } finally {
      openai.reset()
    }
  })
}
