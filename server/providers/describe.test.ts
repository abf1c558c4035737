import { expect, test } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { describeProviders } from '#server/providers/describe.ts'
import type { LanguageModel, SearchProvider } from '#server/providers/types.ts'

const search = (name: string) => ({ name }) as SearchProvider
const model = (name: string, kind: LanguageModel['kind']) => ({ name, kind }) as LanguageModel
const extractive = model('extractive (no language model)', 'extractive')

test('the corpus: the sample is said to be invented, and how to search the web instead', () => {
  const config = loadConfig({ SEARCH_PROVIDER: 'corpus' })
  const sample = describeProviders(
    config,
    { search: search('local corpus'), model: extractive },
    {
      documents: 18,
      invented: 18,
    },
  )
  expect(sample.search.inUse).toBe(
    'the sample corpus bundled with Sextant: invented articles for trying it offline, not the web',
  )
  expect(sample.search.change).toMatch(/SEARCH_PROVIDER=open \(no key needed\)/)
  const own = describeProviders(
    config,
    { search: search('local corpus'), model: extractive },
    {
      documents: 40,
      invented: 0,
    },
  )
  expect(own.search.inUse).toBe('the local corpus (40 documents indexed on this server), not the web')
})

test('the open sources, a keyed search, and each kind of model say what changes them', () => {
  const open = describeProviders(loadConfig({}), {
    search: search('open sources (GDELT, Wikipedia)'),
    model: extractive,
  })
  expect(open.search.inUse).toBe(
    'open sources (GDELT, Wikipedia), no key needed (offline, the local corpus answers instead)',
  )
  expect(open.search.change).toMatch(/EXA_API_KEY.*SEARCH_PROVIDER=corpus/)
  expect(open.model.change).toMatch(/OPENAI_API_KEY.*Ollama with llama3\.1 pulled/)

  const keyed = describeProviders(loadConfig({ EXA_API_KEY: 'k', OPENAI_API_KEY: 'k' }), {
    search: search('exa'),
    model: model('gpt-4.1-mini', 'model'),
  })
  expect(keyed.search.inUse).toBe('exa (SEARCH_PROVIDER=exa)')
  expect(keyed.model).toEqual({
    inUse: 'gpt-4.1-mini at OpenAI (OPENAI_API_KEY)',
    change: 'OPENAI_MODEL picks another model; OPENAI_BASE_URL another OpenAI-compatible API.',
  })

  const ollama = describeProviders(loadConfig({}), {
    search: search('open sources'),
    model: model('llama3.1', 'model'),
  })
  expect(ollama.model.inUse).toBe('llama3.1 on Ollama at http://127.0.0.1:11434')
})
