// A web that changes between two runs on one topic, for tests of what every surface shows of a
// delta: through the stub model (which quotes each page's first sentence), the second run finds one
// figure updated ($90 -> $80), one claim contradicted (the plant will not open), one claim only
// confirmed (the cycles) and one new claim (the recycling line). See test/claims-delta.test.ts.
import { expect } from 'vitest'
import type { createTestAccount } from '#test/support/accounts.ts'
import type { TestApp } from '#test/support/app.ts'
import { postBrief, type RunBody, waitForRun } from '#test/support/runs.ts'
import type { StubExaDocument } from '#test/support/stub-exa.ts'

export const CHANGING_TOPIC = 'Sodium-ion batteries'

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString()

type Page = StubExaDocument & { text: string }

function page(slug: string, text: string, daysAgo: number): Page {
  return {
    url: `https://news.example/${slug}`,
    title: `Sodium-ion batteries: ${slug}`,
    publishedDate: day(daysAgo),
    text,
  }
}

export const BEFORE = {
  price: page(
    'prices-2025',
    'Sodium-ion battery cells from CATL cost $90/kWh at the end of 2025, a market survey found.',
    3,
  ),
  plant: page(
    'northvolt-plant',
    'Northvolt will open its Vasteras sodium-ion plant in 2027, the company said in a statement.',
    3,
  ),
  cycles: page(
    'cycles',
    'Independent tests showed Natron sodium-ion cells keeping 80 percent capacity after 5000 cycles.',
    3,
  ),
}
export const AFTER = {
  price: page(
    'prices-update',
    'Sodium-ion battery cells from CATL cost $80/kWh at the end of 2025, a revised market survey found.',
    1,
  ),
  plant: page(
    'northvolt-halt',
    'Northvolt will not open its Vasteras sodium-ion plant in 2027, the company said on Monday.',
    1,
  ),
  cycles: page(
    'cycles-again',
    'Independent tests showed Natron sodium-ion cells keeping 80 percent capacity after 5000 cycles.',
    1,
  ),
  recycling: page(
    'byd-recycling',
    'BYD opened a recycling line in Hefei that recovers sodium and hard carbon from spent cells.',
    1,
  ),
}

type User = Awaited<ReturnType<typeof createTestAccount>>

/**
 * `documents` is the stub Exa's live list (pass it to startProviderApp). `researchTwice` runs the
 * topic for `user` on the web as it was, then again after it changed, and returns both runs.
 */
export function changingWeb() {
  const documents: StubExaDocument[] = []
  return {
    documents,
    async researchTwice(app: TestApp, user: User, brief: { topic?: string; reportStyle?: string } = {}) {
      const input = { topic: CHANGING_TOPIC, depth: 'quick', timeframe: '30d', ...brief } as const
      const run = async () => {
        const { response, body } = await postBrief(app.fetch, user.auth, input as never)
        expect(response.status).toBe(202)
        const done = await waitForRun(app.fetch, user.auth, body.runId)
        expect(done.status).toBe('complete')
        return done as RunBody & { report: NonNullable<RunBody['report']> }
      }
      documents.splice(0, documents.length, ...Object.values(BEFORE))
      const first = await run()
      documents.splice(0, documents.length, ...Object.values(AFTER))
      const second = await run()
      // What the surfaces are tested on: the engine did classify the second run this way.
      expect(second.report.delta).toMatchObject({
        updated: [expect.objectContaining({ text: AFTER.price.text })],
        contradicted: [expect.objectContaining({ text: AFTER.plant.text })],
        newFindings: [expect.objectContaining({ text: AFTER.recycling.text })],
        confirmed: 1,
      })
      return { first, second }
    },
  }
}
