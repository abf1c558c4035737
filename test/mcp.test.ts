// The MCP server through the SDK's own client, over Streamable HTTP and legacy SSE; and what the topic
// tools say after a second run on a web that changed.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { QUEUED_STEP } from '#server/vocabulary/runs.ts'
import { createTestAccount } from '#test/support/accounts.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'
import { AFTER, BEFORE, CHANGING_TOPIC, changingWeb } from '#test/support/changing-web.ts'
import { type ProviderApp, startProviderApp } from '#test/support/provider-app.ts'
import { queueRunRow } from '#test/support/runs.ts'

let app: TestApp
let stubs: ProviderApp
const web = changingWeb()
beforeAll(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_RUNS_PER_HOUR: '1000', RATE_LIMIT_MCP_PER_HOUR: '120' } })
  stubs = await startProviderApp({ documents: web.documents })
})
afterAll(async () => {
  await app.stop()
  await stubs.stop()
})

const TOOLS = [
  'compare_topics',
  'export_topic',
  'get_run_report',
  'get_run_status',
  'get_topic_delta',
  'get_topic_memory',
  'list_frameworks',
  'research_brief',
  'search_memory',
]

async function connect(key: string, transport: 'http' | 'sse', base = app.url) {
  const headers = { Authorization: `Bearer ${key}` }
  const client = new Client({ name: 'sextant-test', version: '1.0.0' })
  if (transport === 'http') {
    await client.connect(new StreamableHTTPClientTransport(new URL('/api/mcp', base), { requestInit: { headers } }))
  } else {
    await client.connect(
      new SSEClientTransport(new URL('/api/mcp/sse', base), {
        requestInit: { headers },
      }),
    )
  }
  return client
}

type Structured = Record<string, unknown>
async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args })
  return {
    isError: result.isError === true,
    structured: result.structuredContent as Structured,
    text: (result.content as Array<{ text: string }>)[0]?.text ?? '',
  }
}

/** Where a JSON Schema gives `type` as a list, by path. */
function typeLists(path: string, node: unknown): string[] {
  if (node === null || typeof node !== 'object') return []
  const here = !Array.isArray(node) && Array.isArray((node as { type?: unknown }).type) ? [path] : []
  return [...here, ...Object.entries(node).flatMap(([key, value]) => typeLists(`${path}.${key}`, value))]
}

async function untilComplete(client: Client, runId: string) {
  const deadline = performance.now() + 30_000
  for (;;) {
    const { structured } = await call(client, 'get_run_status', { runId })
    if (structured.status !== 'running') return structured
    if (performance.now() > deadline) throw new Error(`run ${runId} did not finish`)
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
}

for (const transport of ['http', 'sse'] as const) {
  test(`${transport}: the nine tools, and a full research flow from brief to export`, async () => {
    const user = await createTestAccount(app.db)
    const client = await connect(user.key, transport)
    try {
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS)
      // The Inspector's --strict mode warns on a list of types ("type": ["string", "null"]).
      expect(
        tools.flatMap((tool) => typeLists(tool.name, { input: tool.inputSchema, output: tool.outputSchema })),
      ).toEqual([])
      const report = tools.find((tool) => tool.name === 'get_run_report')
      expect(report?.annotations?.readOnlyHint).toBe(true)
      expect(report?.outputSchema).toBeDefined()
      expect(tools.find((tool) => tool.name === 'research_brief')?.inputSchema.properties).toHaveProperty('topic')

      const topic = `heat pumps in cold climates ${transport}`
      const started = await call(client, 'research_brief', { topic, depth: 'quick', timeframe: 'all' })
      expect(started.structured).toMatchObject({ status: 'running', hasMemory: false, runCount: 0 })
      const runId = started.structured.runId as string

      // Not complete yet, or complete: either way the report tool answers sensibly.
      const early = await call(client, 'get_run_report', { runId })
      if (early.isError) expect(early.text).toMatch(/no report yet/)
      expect(await untilComplete(client, runId)).toMatchObject({ status: 'complete', currentStep: null })
      const report1 = await call(client, 'get_run_report', { runId })
      expect(report1.isError).toBe(false)
      expect(report1.structured).toMatchObject({ runId, delta: { baseline: true } })
      const sources = report1.structured.sources as Array<{ n: number; title: string; url: string }>
      expect(sources.length).toBeGreaterThan(0)
      // A client that reads only the text still finds what each [n] cites.
      expect(report1.text).toContain(`${report1.structured.summary}`)
      for (const source of sources) expect(report1.text).toContain(`[${source.n}] ${source.title} — ${source.url}`)

      const memory = await call(client, 'get_topic_memory', { topic: topic.toUpperCase() })
      expect(memory.structured).toMatchObject({ stats: { runCount: 1 } })
      expect((memory.structured.facts as unknown[]).length).toBeGreaterThan(0)

      // A second run, waited for with progress notifications.
      const progress: number[] = []
      const waited = await client.callTool(
        { name: 'research_brief', arguments: { topic, depth: 'quick', timeframe: 'all', wait: true } },
        undefined,
        { onprogress: (update) => progress.push(update.progress), timeout: 60_000 },
      )
      const second = waited.structuredContent as Structured
      expect(second).toMatchObject({ hasMemory: true, runCount: 1 })
      if (second.status === 'running') await untilComplete(client, second.runId as string)
      expect(progress.length).toBeGreaterThan(0)

      const delta = await call(client, 'get_topic_delta', { topic })
      expect(delta.structured).toMatchObject({ runId: second.runId })

      const other = `sodium-ion batteries ${transport}`
      const otherRun = await call(client, 'research_brief', { topic: other, depth: 'quick', timeframe: 'all' })
      await untilComplete(client, otherRun.structured.runId as string)
      const search = await call(client, 'search_memory', { query: 'heat pump' })
      expect(
        (search.structured.results as Array<{ topic: string }>).some((hit) => hit.topic.startsWith('heat pumps')),
      ).toBe(true)
      const compared = await call(client, 'compare_topics', { topicA: topic, topicB: other })
      expect(compared.isError).toBe(false)
      expect(compared.structured.topics).toHaveLength(2)
      const exported = await call(client, 'export_topic', { topic })
      expect(exported.text).toMatch(/^# heat pumps in cold climates/)

      const frameworks = await call(client, 'list_frameworks', {})
      expect((frameworks.structured.frameworks as Array<{ id: string }>).map((framework) => framework.id)).toContain(
        'pestle',
      )

      // Expected failures are tool results that tell the model what to do, not protocol errors.
      const missing = await call(client, 'get_topic_memory', { topic: 'never researched' })
      expect(missing).toMatchObject({ isError: true, text: expect.stringMatching(/Run research_brief/) })
    } finally {
      await client.close()
    }
  })
}

test('research_brief lists the budgets with their ranges and starts a run that keeps them', async () => {
  const user = await createTestAccount(app.db)
  const client = await connect(user.key, 'http')
  try {
    const { tools } = await client.listTools()
    const tool = tools.find((candidate) => candidate.name === 'research_brief')
    expect(tool?.description).toContain('maxTokens and maxCostDollars cap what the run may spend')
    expect(tool?.inputSchema.properties).toMatchObject({
      maxTokens: { type: 'integer', minimum: 1_000, maximum: 10_000_000 },
      maxCostDollars: { type: 'number', minimum: 0.01, maximum: 1_000 },
    })
    const started = await call(client, 'research_brief', {
      topic: 'budgeted over mcp',
      depth: 'quick',
      maxTokens: 40_000,
      maxCostDollars: 0.3,
    })
    expect(started.isError).toBe(false)
    const view = await (await app.fetch(`/api/briefs/${started.structured.runId}`, { headers: user.auth })).json()
    expect(view.brief).toMatchObject({ source: 'mcp', maxTokens: 40_000, maxCostDollars: 0.3 })
  } finally {
    await client.close()
  }
})

test('research_brief starts a recurring brief every 6 hours that sends every run, and says how in its description', async () => {
  const user = await createTestAccount(app.db)
  const client = await connect(user.key, 'http')
  try {
    const { tools } = await client.listTools()
    const tool = tools.find((candidate) => candidate.name === 'research_brief')
    expect(tool?.description).toContain('recurring: true makes it a series')
    expect(tool?.description).toContain('on a cron expression read in timeZone')
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['every', 'cron', 'timeZone', 'notify']),
    )
    const started = await call(client, 'research_brief', {
      topic: 'six hourly over mcp',
      depth: 'quick',
      recurring: true,
      every: '6h',
      notify: 'always',
    })
    expect(started.isError).toBe(false)
    const { series } = await (await app.fetch('/api/series', { headers: user.auth })).json()
    expect(series).toHaveLength(1)
    expect(series[0]).toMatchObject({
      topic: 'six hourly over mcp',
      cadence: { every: '6h', cron: null, timeZone: null },
      notify: 'always',
      lastRunId: started.structured.runId,
    })
    // Out of range: refused with the range, and no series.
    const tooOften = await call(client, 'research_brief', { topic: 'too often', recurring: true, every: '10m' })
    expect(tooOften.isError).toBe(true)
    expect(tooOften.text).toContain('every must be from 1h to 30d (got 10m)')
  } finally {
    await client.close()
  }
})

test('a run no worker has taken yet is queued: its status says so, and its report is not ready', async () => {
  const user = await createTestAccount(app.db)
  // Its row as a start writes it, with no job: no worker will take it.
  const runId = await queueRunRow(app, user.account.id, 'a queued brief', { deadlineInSeconds: 3600, limitSeconds: 90 })
  const client = await connect(user.key, 'http')
  try {
    expect((await call(client, 'get_run_status', { runId })).structured).toMatchObject({
      status: 'running',
      currentStep: QUEUED_STEP,
    })
    const report = await call(client, 'get_run_report', { runId })
    expect(report.isError).toBe(true)
    expect(report.text).toContain('queued, waiting for a worker')
  } finally {
    await client.close()
  }
})

test("another account's run is not visible, and a key is required", async () => {
  const alice = await createTestAccount(app.db)
  const bob = await createTestAccount(app.db)
  const aliceClient = await connect(alice.key, 'http')
  const bobClient = await connect(bob.key, 'http')
  try {
    const { structured } = await call(aliceClient, 'research_brief', { topic: 'alice private', depth: 'quick' })
    for (const tool of ['get_run_status', 'get_run_report']) {
      const peek = await call(bobClient, tool, { runId: structured.runId })
      expect(peek).toMatchObject({ isError: true, text: expect.stringMatching(/no run/) })
    }
  } finally {
    await aliceClient.close()
    await bobClient.close()
  }
  for (const path of ['/api/mcp', '/api/mcp/sse']) {
    const response = await app.fetch(path, {
      method: path.endsWith('sse') ? 'GET' : 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: path.endsWith('sse') ? undefined : JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/)
  }
})

test('the 121st tool call in an hour is 429 with the rate-limit headers', async () => {
  const user = await createTestAccount(app.db)
  const client = await connect(user.key, 'http')
  try {
    for (let i = 0; i < 120; i++) await client.callTool({ name: 'list_frameworks', arguments: {} })
    await client.listTools() // not a tool call: not counted
  } finally {
    await client.close()
  }
  const response = await app.fetch('/api/mcp', {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${user.key}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'list_frameworks', arguments: {} },
    }),
  })
  expect(response.status).toBe(429)
  expect(response.headers.get('ratelimit-policy')).toBe('"mcp";q=120;w=3600')
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(await response.json()).toMatchObject({ limit: 'mcp', quota: 120 })
})

test('a server error inside a tool is answered in general terms, without the database’s message', async () => {
  const user = await createTestAccount(app.db)
  const client = await connect(user.key, 'http')
  // This test file's own database: the table is back before the next test.
  await app.db.schema.alterTable('topic_memory').renameTo('topic_memory_away').execute()
  try {
    const result = await call(client, 'search_memory', { query: 'anything' })
    expect(result.isError).toBe(true)
    expect(result.text).toBe(
      'Sextant could not complete search_memory because of a server error. Try again in a moment.',
    )
    expect(result.text).not.toMatch(/relation|topic_memory|does not exist/)
  } finally {
    await app.db.schema.alterTable('topic_memory_away').renameTo('topic_memory').execute()
    await client.close()
  }
})

test('get_topic_delta tells new, updated and contradicted facts apart, with what each replaced, and its text cites by number', async () => {
  const user = await createTestAccount(stubs.app.db)
  const { second } = await web.researchTwice(stubs.app, user)
  const client = await connect(user.key, 'http', stubs.app.url)
  try {
    // The SDK client checks structuredContent against each tool's output schema.
    const delta = await call(client, 'get_topic_delta', { topic: CHANGING_TOPIC.toLowerCase() })
    expect(delta.isError).toBe(false)
    const fact = (page: { text: string; url: string }) => ({
      text: page.text,
      quote: page.text,
      sourceUrls: [page.url],
    })
    expect(delta.structured).toMatchObject({
      runId: second.runId,
      newFacts: [fact(AFTER.recycling)],
      updated: [{ ...fact(AFTER.price), previous: fact(BEFORE.price) }],
      contradicted: [{ ...fact(AFTER.plant), previous: fact(BEFORE.plant) }],
      confirmed: 1,
    })
    expect(delta.structured.facts).toHaveLength(3)

    // A client that reads only the text has every fact, its quote, what it replaced, and working references.
    const text = delta.text
    expect(text.split('\n')[0]).toMatch(
      new RegExp(
        `^What the latest run on Sodium-ion batteries \\(\\d{4}-\\d{2}-\\d{2}, run ${second.runId}\\) changed: 1 new, 1 updated, 1 contradicted; 1 fact confirmed\\.$`,
      ),
    )
    const entry = (label: string, now: { text: string }, was: { text: string }) =>
      new RegExp(
        `- ${regexText(now.text)} \\[(\\d+)\\]\\n  Quote: “${regexText(now.text)}”\\n  ${label}: ${regexText(was.text)} \\(last seen \\d{4}-\\d{2}-\\d{2}\\) \\[(\\d+)\\]`,
      )
    const updated = entry('Was', AFTER.price, BEFORE.price).exec(text)
    const contradicted = entry('Previously', AFTER.plant, BEFORE.plant).exec(text)
    expect(updated, text).not.toBeNull()
    expect(contradicted, text).not.toBeNull()
    expect(text).toContain(`New:\n- ${AFTER.recycling.text} [`)
    const source = (n: string | undefined) => new RegExp(`^\\[${n}\\] [^\\n]* — (\\S+)$`, 'm').exec(text)?.[1]
    expect(source(updated?.[1])).toBe(AFTER.price.url)
    expect(source(updated?.[2])).toBe(BEFORE.price.url)
    expect(source(contradicted?.[2])).toBe(BEFORE.plant.url)
    for (const [, n] of text.matchAll(/\[(\d+)\](?! )/g)) expect(source(n), `[${n}]`).toMatch(/^https:\/\//)

    const memory = await call(client, 'get_topic_memory', { topic: CHANGING_TOPIC })
    const facts = memory.structured.facts as Array<{
      text: string
      quote: string
      firstSeen: string
      lastConfirmed: string
      supersedes?: { id: string }
    }>
    const history = memory.structured.history as Array<{ id: string; text: string; supersededBy: string }>
    expect(facts.map((f) => f.text).sort()).toEqual(
      [AFTER.price.text, AFTER.plant.text, BEFORE.cycles.text, AFTER.recycling.text].sort(),
    )
    expect(facts.every((f) => f.quote === f.text)).toBe(true)
    const cycles = facts.find((f) => f.text === BEFORE.cycles.text)
    expect(cycles && cycles.lastConfirmed > cycles.firstSeen).toBe(true)
    expect(history.map((f) => f.text).sort()).toEqual([BEFORE.price.text, BEFORE.plant.text].sort())
    const price = facts.find((f) => f.text === AFTER.price.text)
    expect(history.find((f) => f.id === price?.supersedes?.id)).toMatchObject({ text: BEFORE.price.text })
    // As text: the current facts with quotes, dates and what they replaced; the replaced ones apart.
    const [current = '', replaced = ''] = memory.text.split('\n\nHistory (facts later runs updated or contradicted):\n')
    expect(current).toMatch(
      new RegExp(
        `- ${regexText(AFTER.price.text)} \\[\\d+\\]\\n  Quote: “${regexText(AFTER.price.text)}”\\n  First seen [\\d-]+\\.\\n  Was: ${regexText(BEFORE.price.text)} \\[\\d+\\]`,
      ),
    )
    expect(current).toMatch(
      new RegExp(
        `- ${regexText(BEFORE.cycles.text)} \\[\\d+\\]\\[\\d+\\]\\n.*\\n  First seen [\\d-]+; last confirmed [\\d-]+\\.`,
      ),
    )
    expect(current).not.toContain(`- ${BEFORE.plant.text}`)
    expect(replaced).toContain(`- ${BEFORE.plant.text} [`)
    expect(replaced).toMatch(
      new RegExp(`^\\[\\d+\\] Sodium-ion batteries: prices-update — ${regexText(AFTER.price.url)}$`, 'm'),
    )
  } finally {
    await client.close()
  }
})

function regexText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
