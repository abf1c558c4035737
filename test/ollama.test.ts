// No OPENAI_API_KEY, and an Ollama server at OLLAMA_BASE_URL: the whole app finds it at start-up and
// researches with OLLAMA_MODEL. Ollama is a stub speaking its /api/tags and /v1/chat/completions;
// without OLLAMA_BASE_URL the test app sets it to none, so a developer's own Ollama changes nothing.
import net from 'node:net'
import { expect, onTestFinished, test } from 'vitest'
import { readRunEvents } from '#server/runs/event-log.ts'
import { eventDataColumn } from '#server/runs/repository/event-data.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp } from '#test/support/app.ts'
import { capturingLogger } from '#test/support/logger.ts'
import { pageFeed } from '#test/support/provider-app.ts'
import { postBrief, waitForRun } from '#test/support/runs.ts'
import { STUB_EXA_API_KEY, startStubExa } from '#test/support/stub-exa.ts'
import { defaultReply, type StubReply, type StubRequest, startStubOpenAi } from '#test/support/stub-openai.ts'

async function startApp(env: Record<string, string>) {
  const feed = pageFeed('Solid-state batteries', 'ollama')
  feed.publish()
  const exa = await startStubExa({ documents: feed.documents })
  onTestFinished(() => exa.close())
  const { log, lines } = capturingLogger()
  const app = await startTestApp({ env: { EXA_API_KEY: STUB_EXA_API_KEY, EXA_BASE_URL: exa.url, ...env }, log })
  onTestFinished(() => app.stop())
  const providers = lines.find((line) => line.msg === 'research providers')
  return { app, lines, providers }
}

async function stubOllama(
  models: string[],
  options: { reply?: (request: StubRequest) => StubReply; serves?: string[] } = {},
) {
  // Ollama ignores the API key; the stub insists on the one Sextant sends it.
  const stub = await startStubOpenAi({
    apiKey: 'ollama',
    models: options.serves ?? ['llama3.1', 'nomic-embed-text'],
    ollama: { models },
    reply: options.reply,
  })
  onTestFinished(() => stub.close())
  return stub
}

async function research(app: Awaited<ReturnType<typeof startApp>>['app']) {
  const user = await createTestAccount(app.db)
  const { body } = await postBrief(app.fetch, user.auth, { topic: 'Solid-state batteries', depth: 'quick' })
  return waitForRun(app.fetch, user.auth, body.runId)
}

test('a running Ollama with OLLAMA_MODEL pulled plans and writes the report', async () => {
  const ollama = await stubOllama(['llama3.1:latest', 'nomic-embed-text:latest'])
  const { app, providers } = await startApp({ OLLAMA_BASE_URL: ollama.url })

  const done = await research(app)

  expect(providers).toMatchObject({ model: 'llama3.1' })
  expect(done.status).toBe('complete')
  expect(done.report?.generatedWith).toMatchObject({ synthesis: 'llama3.1', synthesisKind: 'model', plan: 'model' })
  const kinds = ollama.requests.map((request) => request.kind)
  expect(kinds).toContain('plan')
  expect(kinds).toContain('synthesize')
  expect(ollama.requests.every((request) => request.model === 'llama3.1' || request.model === 'nomic-embed-text')).toBe(
    true,
  )
  // Ollama reads max_tokens (num_predict) and ignores max_completion_tokens.
  expect(ollama.requests.find((request) => request.kind === 'plan')?.maxTokens).toBe(800)
})

test('an Ollama older than 0.5, which ignores json_schema: the model still writes the report, in JSON mode', async () => {
  // Unconstrained, a model answers as it likes: prose around its JSON, and not quite the schema.
  const ollama = await stubOllama(['llama3.1:latest'], {
    reply: (request) =>
      request.responseFormat?.type === 'json_schema'
        ? { content: 'Sure! Here is what I found: {"headline": "Pilot lines"}' }
        : defaultReply(request),
  })
  const { app } = await startApp({ OLLAMA_BASE_URL: ollama.url })

  const done = await research(app)

  expect(done.status).toBe('complete')
  expect(done.report?.generatedWith).toMatchObject({ synthesis: 'llama3.1', synthesisKind: 'model', plan: 'model' })
  expect(done.report?.sources.length).toBeGreaterThan(0)
  // Each call's answer was not the schema's JSON: repaired in JSON mode. Two such answers in a row are
  // not yet taken to mean the server ignores json_schema (three are; openai-model-json-mode.test.ts).
  const formats = ollama.requests.map((request) => request.responseFormat?.type)
  expect(formats).toEqual(['json_schema', 'json_object', 'json_schema', 'json_object'])
})

test('an Ollama without OLLAMA_MODEL: reports are written without a model, and the log says what to pull', async () => {
  const ollama = await stubOllama(['qwen2.5:7b'])
  const { app, lines, providers } = await startApp({ OLLAMA_BASE_URL: ollama.url })

  const done = await research(app)

  expect(providers).toMatchObject({ model: 'extractive (no language model)' })
  expect(lines.find((line) => line.level === 'warn')?.msg).toMatch(
    /has no model "llama3\.1": run `ollama pull llama3\.1`/,
  )
  expect(done.status).toBe('complete')
  expect(done.report?.generatedWith.synthesisKind).toBe('extractive')
  expect(ollama.requests).toEqual([])
})

test('a model removed after start-up: the run still completes, and its warning names OLLAMA_MODEL', async () => {
  const ollama = await stubOllama(['llama3.1:latest'], { serves: [] })
  const { app } = await startApp({ OLLAMA_BASE_URL: ollama.url })

  const done = await research(app)

  expect(done.status).toBe('complete')
  expect(done.report?.generatedWith).toMatchObject({ synthesisKind: 'extractive', plan: 'fallback' })
  const events = await readRunEvents(app.db, eventDataColumn(app.ring), done.runId, 0)
  const warning = events.find((event) => event.type === 'warning' && event.data.code === 'extractive_fallback')
  expect(warning?.data.message).toMatch(
    /model "llama3\.1" was not found at .*check OLLAMA_MODEL \(and OLLAMA_BASE_URL\)/,
  )
})

test('nothing at OLLAMA_BASE_URL: the extractive synthesizer, and a warning naming the address', async () => {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))

  const { lines, providers } = await startApp({ OLLAMA_BASE_URL: `http://127.0.0.1:${port}` })

  expect(providers).toMatchObject({ model: 'extractive (no language model)' })
  expect(lines.find((line) => line.level === 'warn')).toMatchObject({
    msg: expect.stringContaining(`no Ollama server at OLLAMA_BASE_URL (http://127.0.0.1:${port})`),
  })
})

test('with OPENAI_API_KEY set, Ollama is never asked', async () => {
  const ollama = await stubOllama(['llama3.1:latest'])
  const openai = await startStubOpenAi()
  onTestFinished(() => openai.close())

  const { providers } = await startApp({
    OPENAI_API_KEY: openai.apiKey,
    OPENAI_BASE_URL: openai.baseUrl,
    OLLAMA_BASE_URL: ollama.url,
  })

  expect(providers).toMatchObject({ model: 'gpt-4.1-mini' })
  expect(ollama.probes).toEqual([])
})
