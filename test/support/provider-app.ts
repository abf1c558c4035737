// The whole app with its real Exa and OpenAI clients pointed at stub servers that speak their wire
// formats, for tests of runs against providers that misbehave on demand.
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { STUB_EXA_API_KEY, type StubExa, type StubExaDocument, startStubExa } from '#test/support/stub-exa.ts'
import { type StubOpenAi, startStubOpenAi } from '#test/support/stub-openai.ts'

export type ProviderApp = { app: TestApp; exa: StubExa; openai: StubOpenAi; stop: () => Promise<void> }

/** `documents` is the stub's live list: tests may add to it between runs. */
export async function startProviderApp(options: {
  documents: StubExaDocument[]
  env?: Record<string, string>
  openai?: Parameters<typeof startStubOpenAi>[0]
  exa?: Omit<NonNullable<Parameters<typeof startStubExa>[0]>, 'documents'>
}): Promise<ProviderApp> {
  const exa = await startStubExa({ ...options.exa, documents: options.documents })
  const openai = await startStubOpenAi(options.openai)
  const app = await startTestApp({
    env: {
      EXA_API_KEY: STUB_EXA_API_KEY,
      EXA_BASE_URL: exa.url,
      OPENAI_API_KEY: openai.apiKey,
      OPENAI_BASE_URL: openai.baseUrl,
      RATE_LIMIT_RUNS_PER_HOUR: '1000',
      ...options.env,
    },
  })
  return {
    app,
    exa,
    openai,
    async stop() {
      await app.stop()
      await exa.close()
      await openai.close()
    },
  }
}

/**
 * A page feed for a topic: each call publishes one new page (first in the list, since the stub
 * ranks equal matches in list order and returns only the top few), so each run has something new.
 */
export function pageFeed(topic: string, path: string) {
  const documents: StubExaDocument[] = []
  let pages = 0
  return {
    documents,
    publish() {
      pages += 1
      documents.unshift({
        url: `https://news.example/${path}/${pages}`,
        title: `${topic}, update ${pages}`,
        publishedDate: new Date(Date.now() - pages * 60_000).toISOString(),
        text: `${topic}: finding number ${pages}, with ${pages * 10} units measured in the field this week.`,
      })
    },
  }
}

/**
 * For fault tests on one topic: the app on stub providers (each provider call given half a second),
 * an account, and a completed baseline run, so every faulted run has memory it could damage.
 */
export async function startWithBaseline(topic: string, feed: ReturnType<typeof pageFeed>) {
  const stubs = await startProviderApp({
    documents: feed.documents,
    env: { PROVIDER_TIMEOUT_SECONDS: '0.5', RUN_DEADLINE_QUICK_SECONDS: '20' },
  })
  const user = await createTestAccount(stubs.app.db)
  feed.publish()
  const { body } = await postBrief(stubs.app.fetch, user.auth, { topic, depth: 'quick' })
  const baseline = await waitForRun(stubs.app.fetch, user.auth, body.runId)
  if (baseline.status !== 'complete') throw new Error(`the baseline run ended ${baseline.status}`)
  return { ...stubs, user }
}

export type BaselineApp = Awaited<ReturnType<typeof startWithBaseline>>
