import path from 'node:path'
import { expect, test } from 'vitest'
import { ConfigError, loadConfig, modelPrices } from '#server/config.ts'

test('defaults give a local, embedded-database setup', () => {
  const config = loadConfig({}, '/srv/sextant')
  expect(config).toMatchObject({
    NODE_ENV: 'production',
    PORT: 3000,
    HOST: '127.0.0.1',
    RUN_ROLE: 'all',
    DATA_DIR: path.resolve('/srv/sextant', '.data'),
    embeddedDatabase: true,
  })
})

test('a non-numeric PORT is rejected with the variable named and the value quoted', () => {
  expect(() => loadConfig({ PORT: 'abc' })).toThrowError(ConfigError)
  try {
    loadConfig({ PORT: 'abc' })
  } catch (error) {
    expect((error as ConfigError).issues).toEqual([{ variable: 'PORT', message: 'must be a number (got "abc")' }])
    expect((error as Error).message).toContain('PORT')
  }
})

test('every bad variable is reported at once', () => {
  try {
    loadConfig({ PORT: '70000', RUN_ROLE: 'boss', DATABASE_URL: 'mysql://x' })
    expect.unreachable()
  } catch (error) {
    const variables = (error as ConfigError).issues.map((issue) => issue.variable).sort()
    expect(variables).toEqual(['DATABASE_URL', 'PORT', 'RUN_ROLE'])
  }
})

test('an empty variable counts as unset', () => {
  expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ PORT: 3000, embeddedDatabase: true })
})

test('DATABASE_URL turns the embedded database off', () => {
  const config = loadConfig({ DATABASE_URL: 'postgres://u:p@db.internal:5432/sextant' })
  expect(config.embeddedDatabase).toBe(false)
})

test('boolean flags accept true/false spellings and reject others', () => {
  expect(loadConfig({ BUILD_ON_START: 'false' }).BUILD_ON_START).toBe(false)
  expect(loadConfig({ BUILD_ON_START: '1' }).BUILD_ON_START).toBe(true)
  expect(() => loadConfig({ BUILD_ON_START: 'maybe' })).toThrowError(/BUILD_ON_START: must be true or false/)
})

test('a malformed memory key ring is rejected at boot with the reason', () => {
  expect(() => loadConfig({ MEMORY_ENCRYPTION_KEYS: 'k1:c2hvcnQ=' })).toThrowError(
    /MEMORY_ENCRYPTION_KEYS: must be kid:base64key,\.\.\. \(key "k1" must be 32 bytes/,
  )
  const good = `k1:${Buffer.alloc(32, 7).toString('base64')}`
  expect(loadConfig({ MEMORY_ENCRYPTION_KEYS: good }).MEMORY_ENCRYPTION_KEYS).toBe(good)
})

test('the per-address connection cap is on for direct clients and off behind proxies unless set', () => {
  expect(loadConfig({}).MAX_CONNECTIONS_PER_ADDRESS).toBe(256)
  expect(loadConfig({ TRUST_PROXY: '1' }).MAX_CONNECTIONS_PER_ADDRESS).toBe(0)
  expect(loadConfig({ TRUST_PROXY: '1', MAX_CONNECTIONS_PER_ADDRESS: '2000' }).MAX_CONNECTIONS_PER_ADDRESS).toBe(2000)
  expect(loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '0' }).MAX_CONNECTIONS_PER_ADDRESS).toBe(0)
})

test("an account's runs going are one worker process's worth unless set; 0 is no limit", () => {
  expect(loadConfig({}).RUNS_PER_ACCOUNT).toBe(8)
  expect(loadConfig({ WORKER_CONCURRENCY: '20' }).RUNS_PER_ACCOUNT).toBe(20)
  expect(loadConfig({ WORKER_CONCURRENCY: '20', RUNS_PER_ACCOUNT: '3' }).RUNS_PER_ACCOUNT).toBe(3)
  expect(loadConfig({ RUNS_PER_ACCOUNT: '0' }).RUNS_PER_ACCOUNT).toBe(0)
  expect(() => loadConfig({ RUNS_PER_ACCOUNT: '-1' })).toThrowError(/RUNS_PER_ACCOUNT: must be at least 0/)
})

test('headers may not be given longer than the whole request', () => {
  expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_SECONDS: '90' })).toThrowError(
    /HTTP_HEADERS_TIMEOUT_SECONDS: must not be more than HTTP_REQUEST_TIMEOUT_SECONDS \(60\)/,
  )
  expect(loadConfig({ HTTP_HEADERS_TIMEOUT_SECONDS: '90', HTTP_REQUEST_TIMEOUT_SECONDS: '90' })).toMatchObject({
    HTTP_HEADERS_TIMEOUT_SECONDS: 90,
  })
})

test('OPENAI_MAX_OUTPUT_TOKENS is unset by default (built-in limits per call) and must be a sensible whole number', () => {
  expect(loadConfig({}).OPENAI_MAX_OUTPUT_TOKENS).toBeUndefined()
  expect(loadConfig({ OPENAI_MAX_OUTPUT_TOKENS: '16000' }).OPENAI_MAX_OUTPUT_TOKENS).toBe(16_000)
  expect(() => loadConfig({ OPENAI_MAX_OUTPUT_TOKENS: 'lots' })).toThrowError(
    /OPENAI_MAX_OUTPUT_TOKENS: must be a number/,
  )
  expect(() => loadConfig({ OPENAI_MAX_OUTPUT_TOKENS: '10' })).toThrowError(
    /OPENAI_MAX_OUTPUT_TOKENS: must be at least/,
  )
})

test('RUN_MAX_TOKENS is unset by default (no server-wide budget) and takes a whole number from 1000 to 10000000', () => {
  expect(loadConfig({}).RUN_MAX_TOKENS).toBeUndefined()
  expect(loadConfig({ RUN_MAX_TOKENS: '200000' }).RUN_MAX_TOKENS).toBe(200_000)
  for (const bad of ['0', '999', '20000000', '1.5']) {
    expect(() => loadConfig({ RUN_MAX_TOKENS: bad }), bad).toThrowError(
      new RegExp(
        `RUN_MAX_TOKENS: must be (from 1000 to 10000000|a whole number) \\(got "${bad.replace('.', '\\.')}"\\)`,
      ),
    )
  }
  expect(() => loadConfig({ RUN_MAX_TOKENS: 'lots' })).toThrowError(/RUN_MAX_TOKENS: must be a number of tokens/)
})

test('model prices are unset by default (tokens unpriced), come as a pair, and are never negative', () => {
  expect(modelPrices(loadConfig({}))).toBeUndefined()
  const priced = loadConfig({ OPENAI_INPUT_DOLLARS_PER_MILLION: '0.4', OPENAI_OUTPUT_DOLLARS_PER_MILLION: '1.6' })
  expect(modelPrices(priced)).toEqual({ inputPerMillion: 0.4, outputPerMillion: 1.6 })
  const free = loadConfig({ OPENAI_INPUT_DOLLARS_PER_MILLION: '0', OPENAI_OUTPUT_DOLLARS_PER_MILLION: '0' })
  expect(modelPrices(free)).toEqual({ inputPerMillion: 0, outputPerMillion: 0 })
  expect(() => loadConfig({ OPENAI_INPUT_DOLLARS_PER_MILLION: '0.4' })).toThrowError(
    /OPENAI_OUTPUT_DOLLARS_PER_MILLION: must be set too/,
  )
  expect(() => loadConfig({ OPENAI_OUTPUT_DOLLARS_PER_MILLION: '1.6' })).toThrowError(
    /OPENAI_INPUT_DOLLARS_PER_MILLION: must be set too/,
  )
  expect(() =>
    loadConfig({ OPENAI_INPUT_DOLLARS_PER_MILLION: '-1', OPENAI_OUTPUT_DOLLARS_PER_MILLION: 'cheap' }),
  ).toThrowError(
    /OPENAI_INPUT_DOLLARS_PER_MILLION: must be 0 or more[\s\S]*OPENAI_OUTPUT_DOLLARS_PER_MILLION: must be a number/,
  )
})

test('search: Exa when its key is set, else the open sources; SEARCH_PROVIDER overrides either', () => {
  expect(loadConfig({}).SEARCH_PROVIDER).toBe('open')
  expect(loadConfig({ EXA_API_KEY: 'k' }).SEARCH_PROVIDER).toBe('exa')
  expect(loadConfig({ EXA_API_KEY: 'k', SEARCH_PROVIDER: 'open' }).SEARCH_PROVIDER).toBe('open')
  expect(loadConfig({ EXA_API_KEY: 'k', SEARCH_PROVIDER: 'corpus' }).SEARCH_PROVIDER).toBe('corpus')
  expect(loadConfig({ SEARCH_PROVIDER: 'corpus' }).SEARCH_PROVIDER).toBe('corpus')
  // An empty variable is unset, as everywhere.
  expect(loadConfig({ SEARCH_PROVIDER: '', EXA_API_KEY: 'k' }).SEARCH_PROVIDER).toBe('exa')
})

test('search: unset, the provider whose key or URL is set; with several, Exa, Tavily, Brave, SearXNG in that order', () => {
  expect(loadConfig({ TAVILY_API_KEY: 't' }).SEARCH_PROVIDER).toBe('tavily')
  expect(loadConfig({ BRAVE_API_KEY: 'b' }).SEARCH_PROVIDER).toBe('brave')
  expect(loadConfig({ SEARXNG_URL: 'http://searx.lan:8080' }).SEARCH_PROVIDER).toBe('searxng')
  const all = { EXA_API_KEY: 'e', TAVILY_API_KEY: 't', BRAVE_API_KEY: 'b', SEARXNG_URL: 'http://searx.lan' }
  expect(loadConfig(all).SEARCH_PROVIDER).toBe('exa')
  expect(loadConfig({ ...all, EXA_API_KEY: '' }).SEARCH_PROVIDER).toBe('tavily')
  expect(loadConfig({ ...all, EXA_API_KEY: '', TAVILY_API_KEY: '' }).SEARCH_PROVIDER).toBe('brave')
  expect(loadConfig({ ...all, SEARCH_PROVIDER: 'searxng' }).SEARCH_PROVIDER).toBe('searxng')
  expect(loadConfig({ ...all, SEARCH_PROVIDER: 'open' }).SEARCH_PROVIDER).toBe('open')
})

test('search: a provider that does not exist is refused with the allowed names; each keyed one needs its setting', () => {
  expect(() => loadConfig({ SEARCH_PROVIDER: 'bing' })).toThrowError(
    'SEARCH_PROVIDER: must be one of open, exa, tavily, brave, searxng, corpus (got "bing")',
  )
  expect(() => loadConfig({ SEARCH_PROVIDER: 'exa' })).toThrowError(
    /EXA_API_KEY: must be set when SEARCH_PROVIDER is exa/,
  )
  expect(() => loadConfig({ SEARCH_PROVIDER: 'tavily', EXA_API_KEY: 'k' })).toThrowError(
    /TAVILY_API_KEY: must be set when SEARCH_PROVIDER is tavily/,
  )
  expect(() => loadConfig({ SEARCH_PROVIDER: 'brave', TAVILY_API_KEY: 'k' })).toThrowError(
    /BRAVE_API_KEY: must be set when SEARCH_PROVIDER is brave/,
  )
  expect(() => loadConfig({ SEARCH_PROVIDER: 'searxng', BRAVE_API_KEY: 'k' })).toThrowError(
    /SEARXNG_URL: must be set when SEARCH_PROVIDER is searxng/,
  )
})

test('search: Tavily and Brave default to their public APIs; their base URLs and SEARXNG_URL are http(s), trimmed', () => {
  expect(loadConfig({})).toMatchObject({
    TAVILY_BASE_URL: 'https://api.tavily.com',
    BRAVE_BASE_URL: 'https://api.search.brave.com',
  })
  // SearXNG is self-hosted: no default.
  expect(loadConfig({}).SEARXNG_URL).toBeUndefined()
  expect(
    loadConfig({
      TAVILY_BASE_URL: 'http://127.0.0.1:4010/',
      BRAVE_BASE_URL: 'https://brave.proxy.lan//',
      SEARXNG_URL: 'https://search.lan/searx/',
    }),
  ).toMatchObject({
    TAVILY_BASE_URL: 'http://127.0.0.1:4010',
    BRAVE_BASE_URL: 'https://brave.proxy.lan',
    SEARXNG_URL: 'https://search.lan/searx',
  })
  expect(() =>
    loadConfig({ TAVILY_BASE_URL: 'ftp://tavily.lan', BRAVE_BASE_URL: 'brave', SEARXNG_URL: 'file:///etc' }),
  ).toThrowError(
    /TAVILY_BASE_URL: must be an http\(s\) URL[\s\S]*BRAVE_BASE_URL: must be an http\(s\) URL[\s\S]*SEARXNG_URL: must be an http\(s\) URL/,
  )
})

test('search: the open sources default to their public endpoints; base URLs and the contact are checked', () => {
  expect(loadConfig({})).toMatchObject({
    GDELT_BASE_URL: 'https://api.gdeltproject.org',
    WIKIPEDIA_BASE_URL: 'https://en.wikipedia.org',
    OPENALEX_BASE_URL: 'https://api.openalex.org',
    ARXIV_BASE_URL: 'https://export.arxiv.org',
    HN_SEARCH_BASE_URL: 'https://hn.algolia.com',
  })
  expect(loadConfig({ WIKIPEDIA_BASE_URL: 'https://de.wikipedia.org/' }).WIKIPEDIA_BASE_URL).toBe(
    'https://de.wikipedia.org',
  )
  expect(() => loadConfig({ GDELT_BASE_URL: 'ftp://gdelt.example' })).toThrowError(
    /GDELT_BASE_URL: must be an http\(s\) URL/,
  )
  expect(() => loadConfig({ SEARCH_CONTACT_EMAIL: 'not an address' })).toThrowError(
    /SEARCH_CONTACT_EMAIL: must be an email address/,
  )
})

test('READER_ALLOW_HOSTS is empty by default and takes host:port entries, each with its port', () => {
  expect(loadConfig({}).READER_ALLOW_HOSTS).toEqual([])
  expect(loadConfig({ READER_ALLOW_HOSTS: 'Wiki.Corp:443, 127.0.0.1:8080,[::1]:3000' }).READER_ALLOW_HOSTS).toEqual([
    'wiki.corp:443',
    '127.0.0.1:8080',
    '[::1]:3000',
  ])
  expect(() => loadConfig({ READER_ALLOW_HOSTS: 'wiki.corp' })).toThrowError(
    /READER_ALLOW_HOSTS: must be host:port,\.\.\. \("wiki\.corp" is not host:port/,
  )
  expect(() => loadConfig({ READER_ALLOW_HOSTS: 'http://wiki.corp:80' })).toThrowError(/READER_ALLOW_HOSTS/)
  expect(() => loadConfig({ READER_ALLOW_HOSTS: 'wiki.corp:99999' })).toThrowError(/port outside 1 to 65535/)
  expect(() => loadConfig({ READER_ALLOW_HOSTS: '::1:3000' })).toThrowError(/READER_ALLOW_HOSTS/)
})

test('EMBEDDED_PG_SETTINGS is name=value pairs, each passed on to the embedded Postgres', () => {
  expect(loadConfig({}).EMBEDDED_PG_SETTINGS).toEqual([])
  expect(
    loadConfig({ EMBEDDED_PG_SETTINGS: ' shared_preload_libraries=pg_stat_statements  work_mem=8MB ' })
      .EMBEDDED_PG_SETTINGS,
  ).toEqual(['shared_preload_libraries=pg_stat_statements', 'work_mem=8MB'])
  for (const bad of ['work_mem', 'work_mem=', 'a=b=c', '-c x=1']) {
    expect(() => loadConfig({ EMBEDDED_PG_SETTINGS: bad })).toThrowError(
      /EMBEDDED_PG_SETTINGS: must be name=value pairs/,
    )
  }
})

test('prepared statements are on for the embedded Postgres and off for a DATABASE_URL, unless set', () => {
  expect(loadConfig({}).preparedStatements).toBe(true)
  expect(loadConfig({ DATABASE_URL: 'postgres://db.example/sextant' }).preparedStatements).toBe(false)
  expect(
    loadConfig({ DATABASE_URL: 'postgres://db.example/sextant', DATABASE_PREPARED_STATEMENTS: 'on' })
      .preparedStatements,
  ).toBe(true)
  expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'off' }).preparedStatements).toBe(false)
  expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'yes' })).toThrowError(/DATABASE_PREPARED_STATEMENTS/)
})

test("the app's idle connections stay open by default; a bad idle time is named", () => {
  expect(loadConfig({})).toMatchObject({ DATABASE_POOL_IDLE_SECONDS: 0 })
  expect(loadConfig({ DATABASE_POOL_IDLE_SECONDS: '300' })).toMatchObject({ DATABASE_POOL_IDLE_SECONDS: 300 })
  for (const bad of ['-1', 'soon', '1.5', '100000']) {
    try {
      loadConfig({ DATABASE_POOL_IDLE_SECONDS: bad })
      expect.unreachable()
    } catch (error) {
      expect((error as ConfigError).issues.map((issue) => issue.variable)).toEqual(['DATABASE_POOL_IDLE_SECONDS'])
    }
  }
})

test('a number out of its range is told its range, not that it is no number', () => {
  const told = (env: Record<string, string>) => {
    try {
      loadConfig(env)
    } catch (error) {
      return (error as ConfigError).issues
    }
    return []
  }
  expect(told({ EXA_REQUESTS_PER_SECOND: '100000' })).toEqual([
    { variable: 'EXA_REQUESTS_PER_SECOND', message: 'must be at most 10000 (got "100000")' },
  ])
  expect(told({ EXA_REQUESTS_PER_SECOND: '0' })).toEqual([
    { variable: 'EXA_REQUESTS_PER_SECOND', message: 'must be at least 1 (got "0")' },
  ])
  expect(told({ EXA_REQUESTS_PER_SECOND: '1.5' })).toEqual([
    { variable: 'EXA_REQUESTS_PER_SECOND', message: 'must be a whole number (got "1.5")' },
  ])
  expect(told({ EXA_REQUESTS_PER_SECOND: 'many' })).toEqual([
    { variable: 'EXA_REQUESTS_PER_SECOND', message: 'must be a number (got "many")' },
  ])
})
