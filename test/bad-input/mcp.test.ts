// Property: any arguments to any MCP tool, sent as JSON-RPC to /api/mcp, get an HTTP answer below
// 500 and a tool result that is either a success or one of the failures the tools are written to
// give (bad arguments, no such run, no memory yet...): never an internal error's message, which the
// SDK would otherwise pass to the client as the result text. Failed calls change nothing.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { anyJson, fuzzRuns, nastyString, valueFor } from '#test/support/hostile-input.ts'
import { postBrief } from '#test/support/runs.ts'
import { expectSameState, snapshotState } from '#test/support/state.ts'

const { numRuns: NUM_RUNS, timeout: FUZZ_TIMEOUT } = fuzzRuns(150, 800)

/** The failures the tools and the SDK's argument check are meant to give, each saying what to do. */
// The `s` flag: a caller's value is quoted in these messages, and "." must match whatever it holds.
const EXPECTED_FAILURES = [
  /^MCP error -32602: Input validation error: Invalid arguments for tool \w+/,
  /^MCP error -32602: Tool .* not found/s,
  // The SDK looks tools up in a plain object, so a name like "constructor" finds Object's own
  // property: it answers "disabled" (still -32602), not "not found".
  /^MCP error -32602: Tool (constructor|toString|valueOf|hasOwnProperty|isPrototypeOf|propertyIsEnumerable|toLocaleString|__proto__|__defineGetter__|__defineSetter__|__lookupGetter__|__lookupSetter__) disabled$/,
  /^The brief is not valid: /,
  /^There is no run ".*" for this API key\. Start one with research_brief/s,
  /^The run has no report yet: /,
  /^Sextant has no memory of /,
  /^No memory for ".*"\. Run research_brief on it first\.$/s,
]

/**
 * No raw control character (a newline, a bidi override) comes back in the text of our failures.
 * The SDK's own ("MCP error -32602: Tool <name> not found") echo the name as sent; they are its.
 */
const RAW_CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u
const ours = (failure: string) => !failure.startsWith('MCP error ')

/**
 * The SDK answers a tools/call whose `params` (or `params.arguments`) is not an object with -32603
 * and zod's issues as the message, where JSON-RPC would say -32602. That one case is a refusal of
 * the client's message, not our failure; any other -32603 is.
 */
function isEnvelopeRefusal(error: { code: number; message: string }): boolean {
  if (error.code !== -32603) return false
  try {
    const issues = JSON.parse(error.message) as Array<{ path: unknown[] }>
    return issues.every((issue) => issue.path[0] === 'params')
  } catch {
    return false
  }
}

let app: TestApp
let user: Awaited<ReturnType<typeof createTestAccount>>
let tools: Array<{ name: string; inputSchema: Record<string, unknown> }>
const runIds: string[] = []

beforeAll(async () => {
  app = await startTestApp({
    env: {
      RUN_ROLE: 'web',
      RATE_LIMIT_RUNS_PER_HOUR: '1000000',
      RATE_LIMIT_MCP_PER_HOUR: '1000000',
      RATE_LIMIT_MCP_PER_ACCOUNT_PER_HOUR: '1000000',
    },
  })
  user = await createTestAccount(app.db)
  const other = await createTestAccount(app.db)
  for (const account of [user, other]) {
    runIds.push((await postBrief(app.fetch, account.auth, { topic: 'mcp fuzz', depth: 'quick' })).body.runId)
  }
  const client = new Client({ name: 'fuzz', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/api/mcp', app.url), { requestInit: { headers: user.auth } }),
  )
  tools = (await client.listTools()).tools as typeof tools
  await client.close()
})
afterAll(() => app.stop())

/** One JSON-RPC message's answer: Streamable HTTP sends it as JSON or as one SSE `data:` line. */
async function rpc(body: unknown) {
  const response = await app.fetch('/api/mcp', {
    method: 'POST',
    headers: { ...user.auth, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  })
  const text = await response.text()
  const data = response.headers.get('content-type')?.startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .at(-1)
    : text
  return { response, text, message: data ? JSON.parse(data) : undefined }
}

function argumentsFor(tool: { inputSchema: Record<string, unknown> }): fc.Arbitrary<unknown> {
  const schema = tool.inputSchema as { properties?: Record<string, Record<string, unknown>> }
  // Run ids that exist (one of them another account's) next to garbage, so lookups get exercised.
  const withRunIds = {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(schema.properties ?? {}).map(([name, property]) => [
        name,
        name === 'runId' ? { anyOf: [{ enum: runIds }, property] } : property,
      ]),
    ),
  }
  return fc.oneof({ weight: 6, arbitrary: valueFor(withRunIds as never, {}) }, anyJson)
}

test('every tool, any arguments: never a 5xx or an internal error, and failures change nothing', {
  timeout: FUZZ_TIMEOUT,
}, async () => {
  expect(tools.map((tool) => tool.name)).toHaveLength(9)
  const called = new Set<string>()
  const call = fc
    .oneof(
      { weight: 12, arbitrary: fc.constantFrom(...tools) },
      nastyString.map((name) => ({ name, inputSchema: {} })),
    )
    .chain((tool) => fc.record({ name: fc.constant(tool.name), arguments: argumentsFor(tool) }))
  await fc.assert(
    fc.asyncProperty(call, fc.integer({ min: 1, max: 1e9 }), async (params, id) => {
      const before = await snapshotState(app.db)
      const { response, text, message } = await rpc({ jsonrpc: '2.0', id, method: 'tools/call', params })
      const what = `${params.name}(${JSON.stringify(params.arguments)?.slice(0, 300)}) → ${response.status} ${text.slice(0, 400)}`
      expect(response.status, what).toBeLessThan(500)
      called.add(params.name)
      if (response.status >= 400) {
        expect(response.headers.get('content-type'), what).toMatch(/^application\/problem\+json/)
        expectSameState(await snapshotState(app.db), before, what)
        return
      }
      expect(message?.id, what).toBe(id)
      if (message.error) {
        // Protocol errors for a malformed call: never the server's own failure.
        expect(message.error.code !== -32603 || isEnvelopeRefusal(message.error), what).toBe(true)
      } else if (message.result.isError) {
        const failure = message.result.content?.[0]?.text ?? ''
        expect(
          EXPECTED_FAILURES.some((pattern) => pattern.test(failure)),
          `${what}\nunexpected failure text: ${failure}`,
        ).toBe(true)
        if (ours(failure)) expect(failure, `${what}\nechoes a raw control character`).not.toMatch(RAW_CONTROL)
      } else {
        if (params.name === 'research_brief') return // a valid brief starts a run: that is the point
        expect(message.result.structuredContent, what).toBeDefined()
      }
      expectSameState(await snapshotState(app.db), before, what)
    }),
    { numRuns: NUM_RUNS },
  )
  for (const tool of tools) expect(called.has(tool.name), `${tool.name} was never called`).toBe(true)
})

test('malformed JSON-RPC (not a call, no params, arguments that are not an object) is refused, never a 5xx', {
  timeout: FUZZ_TIMEOUT,
}, async () => {
  const message = fc.oneof(
    anyJson,
    fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), anyJson),
        id: fc.oneof(fc.integer(), nastyString, anyJson),
        method: fc.oneof(fc.constantFrom('tools/call', 'tools/list', 'initialize', 'resources/list'), nastyString),
        params: fc.oneof(
          anyJson,
          fc.record({ name: fc.constantFrom('get_run_status', 'research_brief'), arguments: anyJson }),
        ),
      },
      { requiredKeys: [] },
    ),
    fc.array(anyJson, { maxLength: 3 }),
  )
  await fc.assert(
    fc.asyncProperty(message, async (body) => {
      const before = await snapshotState(app.db)
      const { response, text, message: answer } = await rpc(body)
      const what = `${JSON.stringify(body)?.slice(0, 300)} → ${response.status} ${text.slice(0, 300)}`
      expect(response.status, what).toBeLessThan(500)
      if (answer?.result?.isError) {
        const failure = answer.result.content?.[0]?.text ?? ''
        expect(
          EXPECTED_FAILURES.some((pattern) => pattern.test(failure)),
          `${what}\n${failure}`,
        ).toBe(true)
      }
      if (answer?.error) expect(answer.error.code !== -32603 || isEnvelopeRefusal(answer.error), what).toBe(true)
      if (!(answer?.result && !answer.result.isError)) expectSameState(await snapshotState(app.db), before, what)
    }),
    { numRuns: NUM_RUNS },
  )
})

test('a run id or topic of control characters is quoted with them escaped, never echoed raw', async () => {
  const calls = [
    { name: 'get_run_status', arguments: { runId: '\t\n\r' } },
    { name: 'get_run_report', arguments: { runId: 'x\u202Ey\u0085' } },
    { name: 'get_topic_memory', arguments: { topic: 'a\nb\u2028c' } },
    { name: 'compare_topics', arguments: { topicA: 'a\tb', topicB: 'c\rd' } },
  ]
  for (const [index, params] of calls.entries()) {
    const before = await snapshotState(app.db)
    const { message } = await rpc({ jsonrpc: '2.0', id: index + 1, method: 'tools/call', params })
    const failure: string = message.result.content[0].text
    expect(message.result.isError, failure).toBe(true)
    expect(
      EXPECTED_FAILURES.some((pattern) => pattern.test(failure)),
      failure,
    ).toBe(true)
    expect(failure).not.toMatch(RAW_CONTROL)
    expectSameState(await snapshotState(app.db), before, params.name)
  }
  const { message } = await rpc({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: calls[0] })
  expect(message.result.content[0].text).toMatch(/^There is no run "\\u\{9\}\\u\{A\}\\u\{D\}" for this API key\./)
})
