// Finding Ollama at start-up, against a stub that speaks its /api/tags.
import net from 'node:net'
import { expect, onTestFinished, test } from 'vitest'
import { DEFAULT_OLLAMA_BASE_URL, loadConfig } from '#server/config.ts'
import { detectOllama, OLLAMA_PROBE_TIMEOUT_MS } from '#server/providers/llm/ollama.ts'
import { capturingLogger } from '#test/support/logger.ts'
import { startStubOpenAi } from '#test/support/stub-openai.ts'

async function stubOllama(options: { models: string[]; hang?: boolean }) {
  const stub = await startStubOpenAi({ apiKey: 'ollama', ollama: options })
  onTestFinished(() => stub.close())
  return stub
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

function detect(
  url: string,
  log = capturingLogger().log,
  models: Partial<Record<'model' | 'embeddingModel', string>> = {},
) {
  return detectOllama({
    url,
    model: models.model ?? 'llama3.1',
    embeddingModel: models.embeddingModel ?? 'nomic-embed-text',
    configured: true,
    log,
  })
}

test('a server with the model pulled is used through its OpenAI-compatible /v1, with its embedding model', async () => {
  const stub = await stubOllama({ models: ['llama3.1:latest', 'nomic-embed-text:latest'] })

  expect(await detect(stub.url)).toEqual({
    baseUrl: `${stub.url}/v1`,
    model: 'llama3.1',
    embeddingModel: 'nomic-embed-text',
  })
  expect(stub.probes).toEqual(['/api/tags'])
})

test('a model named with its tag must be pulled with that tag; without the embedding model, no embeddings', async () => {
  const stub = await stubOllama({ models: ['qwen2.5:7b', 'llama3.1:latest'] })

  expect(await detect(stub.url, undefined, { model: 'qwen2.5:7b' })).toMatchObject({
    model: 'qwen2.5:7b',
    embeddingModel: undefined,
  })
  expect(await detect(stub.url, undefined, { model: 'qwen2.5:14b' })).toBeUndefined()
  expect(await detect(stub.url, undefined, { embeddingModel: 'none' })).toMatchObject({ embeddingModel: undefined })
})

test('a server without the model is not used, and the warning says what to pull', async () => {
  const stub = await stubOllama({ models: ['qwen2.5:7b'] })
  const { log, lines } = capturingLogger()

  expect(await detect(stub.url, log)).toBeUndefined()
  const warning = lines.find((line) => line.level === 'warn')
  expect(warning?.msg).toContain('`ollama pull llama3.1`')
  expect(warning).toMatchObject({ installed: ['qwen2.5:7b'] })
})

test('nothing listening: no model, at once, and a configured address that does not answer is a warning', async () => {
  const { log, lines } = capturingLogger()
  const url = `http://127.0.0.1:${await closedPort()}`
  const started = performance.now()

  expect(await detect(url, log)).toBeUndefined()
  // Refused, not timed out: start-up does not wait for the probe's timeout.
  expect(performance.now() - started).toBeLessThan(OLLAMA_PROBE_TIMEOUT_MS)
  expect(lines.find((line) => line.level === 'warn')).toMatchObject({
    url,
    reason: expect.stringMatching(/ECONNREFUSED/),
  })
})

test('a server that takes the connection and never answers is given up after the probe timeout', async () => {
  const stub = await stubOllama({ models: ['llama3.1:latest'], hang: true })
  const started = performance.now()

  expect(await detect(stub.url)).toBeUndefined()
  expect(stub.probes).toEqual(['/api/tags'])
  // Generous: the bound is the timeout, not this machine's speed.
  expect(performance.now() - started).toBeLessThan(OLLAMA_PROBE_TIMEOUT_MS + 4000)
})

test('something at the address that is not Ollama is not used', async () => {
  // The OpenAI stub without Ollama's API answers GET /api/tags with a 404.
  const stub = await startStubOpenAi()
  onTestFinished(() => stub.close())

  expect(await detect(stub.url)).toBeUndefined()
})

test('OLLAMA_BASE_URL: unset means the default address, none turns detection off, /v1 and slashes are dropped', () => {
  expect(loadConfig({}).OLLAMA_BASE_URL).toBeUndefined()
  expect(DEFAULT_OLLAMA_BASE_URL).toBe('http://127.0.0.1:11434')
  expect(loadConfig({ OLLAMA_BASE_URL: 'none' }).OLLAMA_BASE_URL).toBe('none')
  expect(loadConfig({ OLLAMA_BASE_URL: 'http://gpu-box:11434/v1/' }).OLLAMA_BASE_URL).toBe('http://gpu-box:11434')
  expect(() => loadConfig({ OLLAMA_BASE_URL: 'gpu-box:11434' })).toThrowError(
    /OLLAMA_BASE_URL: must be an http\(s\) URL/,
  )
  expect(loadConfig({})).toMatchObject({ OLLAMA_MODEL: 'llama3.1', OLLAMA_EMBEDDING_MODEL: 'nomic-embed-text' })
})
