import { expect, test } from 'vitest'
import type { Db } from '#db/database.ts'
import { loadConfig } from '#server/config.ts'
import { createProviders, createSearch, userAgent } from '#server/providers/index.ts'
import { testLogger } from '#test/support/logger.ts'

// Picking a provider queries nothing, so no database is needed to see which one was picked.
const noDatabase = {} as Db

test('the search provider follows the config: open sources by default, a keyed one with its key, the corpus on request', () => {
  expect(createSearch(loadConfig({}), noDatabase, 1000).name).toBe(
    'open sources (GDELT, Wikipedia, OpenAlex, arXiv, Hacker News)',
  )
  expect(createSearch(loadConfig({ EXA_API_KEY: 'k' }), noDatabase, 1000).name).toBe('exa')
  expect(createSearch(loadConfig({ TAVILY_API_KEY: 'k' }), noDatabase, 1000).name).toBe('tavily')
  expect(createSearch(loadConfig({ BRAVE_API_KEY: 'k' }), noDatabase, 1000).name).toBe('brave')
  expect(createSearch(loadConfig({ SEARXNG_URL: 'http://searx.lan' }), noDatabase, 1000).name).toBe('searxng')
  expect(
    createSearch(loadConfig({ SEARCH_PROVIDER: 'brave', EXA_API_KEY: 'k', BRAVE_API_KEY: 'k' }), noDatabase, 1000).name,
  ).toBe('brave')
  expect(createSearch(loadConfig({ SEARCH_PROVIDER: 'corpus', EXA_API_KEY: 'k' }), noDatabase, 1000).name).toBe(
    'local corpus',
  )
})

test('Exa and the OpenAI model wait for the turns of the rates every process shares', async () => {
  const asked: string[] = []
  const turns = (provider: string) => {
    asked.push(provider)
    return undefined
  }
  await createProviders(
    loadConfig({ EXA_API_KEY: 'k', OPENAI_API_KEY: 'k', READ_PAGES: 'false' }),
    noDatabase,
    testLogger(),
    turns,
  )
  expect(asked.sort()).toEqual(['exa', 'openai'])
})

test('the open sources introduce themselves with PUBLIC_URL and, when set, a contact address', () => {
  expect(userAgent(loadConfig({ PUBLIC_URL: 'https://sextant.example/' }))).toBe(
    'Sextant/1.0 (+https://sextant.example)',
  )
  expect(userAgent(loadConfig({ SEARCH_CONTACT_EMAIL: 'ops@example.org' }))).toBe(
    'Sextant/1.0 (+http://localhost:3000; ops@example.org)',
  )
})
