// Starts the whole app (the same startSextant as `npm start`) on a free port, on its own database.
import { loadConfig } from '#server/config.ts'
import type { JobDefinition } from '#server/jobs/boss.ts'
import type { Logger } from '#server/logger.ts'
import { type Sextant, startSextant } from '#server/start.ts'
import { createDatabase } from '#test/support/database.ts'
import { testLogger } from '#test/support/logger.ts'
import { offlineSearch } from '#test/support/offline-search.ts'

/**
 * The time a test that fires hundreds of requests at once may take. Its verdict is a count (how many
 * were checked, how many refused), never a duration; on a quiet machine such a burst takes a few
 * seconds, but with the rest of the suite and two CPU-bound processes beside it one took over 30 s
 * (issue 41, item 2). A budget, not a clock.
 */
export const BURST_TEST_BUDGET_MS = 120_000

/** A fixed test key ring, so tests can open what the app sealed. */
export const TEST_MEMORY_KEYS = `test1:${Buffer.alloc(32, 1).toString('base64')}`

export type TestApp = Sextant & { url: string; fetch: (path: string, init?: RequestInit) => Promise<Response> }

export async function startTestApp(
  options: {
    env?: Record<string, string>
    jobs?: JobDefinition<unknown>[]
    log?: Logger
    /** Run on this database (a restart) instead of a fresh one; it is then not dropped at stop. */
    databaseUrl?: string
    /** Wraps the argon2 check of API keys (to count verifications). */
    verifyKeySecret?: (hash: string, secret: string) => Promise<boolean>
  } = {},
): Promise<TestApp> {
  const database = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => {} }
    : await createDatabase('sextant_template')
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    DATABASE_URL: database.url,
    BUILD_ON_START: 'false',
    MEMORY_ENCRYPTION_KEYS: TEST_MEMORY_KEYS,
    ...offlineSearch(options.env),
    // A developer's own Ollama must not change what tests see, and CI probes nothing.
    OLLAMA_BASE_URL: 'none',
    // As the embedded Postgres runs by default: every integration test runs with named statements.
    DATABASE_PREPARED_STATEMENTS: 'on',
    // The stub providers take any rate: a test's runs wait for no shared turn unless it sets one.
    EXA_REQUESTS_PER_SECOND: '10000',
    OPENAI_REQUESTS_PER_MINUTE: '1000000',
    ...options.env,
  })
  const sextant = await startSextant({
    config,
    log: options.log ?? testLogger(),
    jobs: options.jobs,
    verifyKeySecret: options.verifyKeySecret,
  })
  const url = sextant.url as string
  return {
    ...sextant,
    url,
    fetch: (path, init) => fetch(new URL(path, url), init),
    async stop() {
      await sextant.stop()
      await database.drop()
    },
  }
}
