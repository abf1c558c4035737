// The engine's own CPU in a research run, measured in-process: the synthesize step's text work
// (choosing the pages' passages, checking every claim's quote on its pages, classifying the claims
// against memory, building the report) on the benchmark's synthetic pages (bench/stubs.ts) and the
// stub model's answers (test/support/stub-openai.ts), with no HTTP, no database and no waiting.
// `npm run bench` measures the whole server; this isolates the part of it that is pure computation.
//
//   npx node bench/engine-cpu.ts            ms per run: median of 7 repetitions after a warm-up
//   npx node bench/engine-cpu.ts --digest   also a hash of every result, to show a change altered none
//   --only quick, --reps 3, --runs 10   fewer scenarios or runs (with --cpu-prof, to profile one)
//   --times                             every repetition's figure, not only the median
import { createHash } from 'node:crypto'
import { parseArgs } from 'node:util'
import { pagesFor } from '#bench/stub-providers.ts'
import {
  JudgeSchema,
  judgeMessages,
  PairsSchema,
  pairMessages,
  toPairVerdicts,
  toVerdicts,
} from '#server/providers/llm/judge.ts'
import { synthesisMessages } from '#server/providers/llm/prompts.ts'
import type { LanguageModel, SearchResult, SynthesisInput } from '#server/providers/types.ts'
import { classifyRunClaims } from '#server/research/delta.ts'
import { memoryDigest } from '#server/research/digest.ts'
import { restatingPages } from '#server/research/novelty.ts'
import { pageTexts, readPassages } from '#server/research/passages.ts'
import { briefText, DEPTH, type EngineDeps, type StepInput } from '#server/research/run-context.ts'
import { synthesizeStep } from '#server/research/step-synthesize.ts'
import { sourcesOnTopic } from '#server/research/topicality.ts'
import type { MemoryContent, TopicMemory } from '#server/topics/contract.ts'
import { mergeMemory } from '#server/topics/merge.ts'
import { BriefSchema, focusAreas } from '#server/vocabulary/brief.ts'
import { defaultReply, type StubRequest } from '#test/support/stub-openai.ts'

const { values: args } = parseArgs({
  options: {
    digest: { type: 'boolean' },
    reps: { type: 'string' },
    runs: { type: 'string' },
    only: { type: 'string' },
    times: { type: 'boolean' },
  },
})
const REPETITIONS = Number(args.reps ?? 7)
/** Runs per repetition, each on its own topic (as the concurrent scenario starts them). */
const RUNS = Number(args.runs ?? 20)
/** Runs made before any is timed. */
const WARM_UP_RUNS = 100
/** Pages are dated, and dates reach the report: fixed, so the digest does not change by the day. */
const PUBLISHED = '2026-11-01T00:00:00.000Z'

/** The stub model's answer, as its server would send it, read as the OpenAI adapter reads it. */
function stubAnswer(kind: StubRequest['kind'], messages: Array<{ role: string; content: string }>) {
  const reply = defaultReply({
    kind,
    model: 'bench',
    messages,
    text: messages.map((message) => message.content).join('\n'),
    responseFormat: undefined,
    maxTokens: undefined,
    maxCompletionTokens: undefined,
    authorization: undefined,
  })
  if (typeof reply !== 'object' || !('content' in reply)) throw new Error(`the stub gave no ${kind} answer`)
  return reply.content
}

/** The stub's answers by prompt (a few hundred, for the process). */
const answers = new Map<string, unknown>()

/** The stub model in-process: the prompts are built and its answers read as over the wire. */
const model: LanguageModel = {
  name: 'bench-stub',
  kind: 'model',
  async plan() {
    throw new Error('not asked in the synthesize step')
  },
  async synthesize(input: SynthesisInput) {
    // The prompt is the engine's work; the answer is the model's, worked out once per prompt (known
    // by its topic and pages: a key of the whole prompt would cost more than the engine's work).
    const messages = synthesisMessages(input)
    const prompt = JSON.stringify([input.topic, input.sources.map((source) => source.url)])
    const content = (answers.get(prompt) ?? stubAnswer('synthesize', messages)) as {
      headline: string
      findings: Array<{ text: string; quote: string; sourceIds: number[] }>
      gaps: string[]
    }
    answers.set(prompt, content)
    const findings = content.findings
      .map((finding) => ({ text: finding.text.trim(), quote: finding.quote, sourceIds: finding.sourceIds }))
      .filter((finding) => finding.text !== '' && finding.sourceIds.length > 0)
    return {
      synthesis: { headline: content.headline.trim(), findings, gaps: content.gaps },
      usage: { inputTokens: 0, outputTokens: 0 },
    }
  },
  async judgeClaims(request, { topic }) {
    const answer = JudgeSchema.parse(stubAnswer('judge', judgeMessages(request, topic)))
    return { verdicts: toVerdicts(answer, request.items.length), usage: { inputTokens: 0, outputTokens: 0 } }
  },
  async judgePairs(request, { topic }) {
    const answer = PairsSchema.parse(stubAnswer('pairs', pairMessages(request, topic)))
    return { verdicts: toPairVerdicts(answer, request.pairs.length), usage: { inputTokens: 0, outputTokens: 0 } }
  },
}

const deps = {
  model,
  search: { name: 'exa' },
  log: { warn() {}, info() {}, error() {}, debug() {} },
  providerTimeoutMs: 30_000,
} as unknown as EngineDeps

type Depth = keyof typeof DEPTH

/** What the search step leaves for a run on `topic`: its queries' pages, as the bench's Exa serves them. */
function searched(topic: string, depth: Depth, pages: number, times = 0): SearchResult[] {
  const perQuery = DEPTH[depth].resultsPerQuery
  return Array.from({ length: Math.ceil(pages / perQuery) }, (_, i) => `${topic} angle ${i + 1}`)
    .flatMap((query) =>
      pagesFor(query, perQuery, times, { share: 0.4, seed: query }).map((page) => ({
        url: page.url,
        title: page.title ?? '',
        publishedDate: PUBLISHED,
        text: page.text ?? '',
        query,
      })),
    )
    .slice(0, pages)
}

/** A first run's synthesize step, whole (memory is empty, so the step reads no database). */
async function firstRun(topic: string, depth: Depth, sources: SearchResult[]) {
  const brief = BriefSchema.parse({ topic, depth })
  const input: StepInput<'synthesize'> = {
    load_memory: { baseline: true, since: null, ledger: [] },
    plan: { queries: [], fallback: false, usage: { inputTokens: 0, outputTokens: 0 } },
    search: { sources, searchCalls: 3, costDollars: 0, removedByLedger: 0, usage: { inputTokens: 0, outputTokens: 0 } },
  }
  return synthesizeStep({
    deps,
    runId: 'bench',
    accountId: 'bench',
    brief,
    input,
    signal: new AbortController().signal,
    written: Promise.resolve(),
    texts: pageTexts(),
    event: async () => undefined,
    flush: () => undefined,
  })
}

/**
 * A re-run's text work against `memory`, as the synthesize step does it with memory loaded: the
 * passages, memory's digest for the prompt, the restatement check, the model's claims checked and
 * classified (the stub judge confirms claims a candidate states word for word).
 */
async function reRun(topic: string, memory: TopicMemory, sources: SearchResult[]) {
  const brief = BriefSchema.parse({ topic, depth: 'quick' })
  const reading = readPassages(sources, briefText(brief), DEPTH.quick.passageCharacters, DEPTH.quick.contextCeiling)
  const read = reading.pages.map((page, position) => ({
    id: position + 1,
    url: (sources[page.index] as SearchResult).url,
    title: (sources[page.index] as SearchResult).title,
    publishedDate: PUBLISHED,
    text: page.text,
  }))
  const digest = memoryDigest(memory, [briefText(brief), ...read.map((source) => source.text)].join('\n'))
  const restated = restatingPages(read, memory.facts)
  const { synthesis } = await model.synthesize(
    {
      topic,
      focus: focusAreas(brief),
      reportStyle: brief.reportStyle,
      depth: 'quick',
      sources: read,
      knownFacts: digest.facts,
      recentRuns: digest.recentRuns,
      today: '2026-11-02',
    },
    { signal: new AbortController().signal },
  )
  const claims = await classifyRunClaims(
    { model },
    {
      topic,
      memory,
      synthesis,
      sources: read,
      onTopic: sourcesOnTopic(topic, read),
      signal: new AbortController().signal,
    },
  )
  return { reading, digest, restated, claims }
}

/** The memory a topic holds after `runs` quick runs (each finds 40% new pages, as the bench's web). */
async function memoryAfter(topic: string, runs: number): Promise<TopicMemory> {
  let content: MemoryContent | undefined
  for (let times = 0; times < runs; times++) {
    const sources = searched(topic, 'quick', 15, times)
    const facts = content
      ? (await reRun(topic, asMemory(content), sources)).claims.facts
      : (await firstRun(topic, 'quick', sources)).facts
    content = mergeMemory(
      content,
      {
        runId: `run-${times}`,
        at: new Date(Date.parse(PUBLISHED) + times * 86_400_000),
        facts,
        sources: [],
        urlsRead: sources.map((source) => source.url),
      },
      topic,
    ).content
  }
  return asMemory(content as MemoryContent)
}

function asMemory(content: MemoryContent): TopicMemory {
  const at = new Date(PUBLISHED)
  return { ...content, topicId: 'bench', runCount: 1, urlsIndexed: 0, factsStored: 0, lastRunAt: at, expiresAt: at }
}

type Scenario = { name: string; inputs: (run: number) => Promise<() => Promise<unknown>> }

const scenarios: Scenario[] = [
  {
    name: 'quick run, synthesize step (15 pages)',
    inputs: async (run) => {
      const sources = searched(`engine cpu ${run}`, 'quick', 15)
      return () => firstRun(`engine cpu ${run}`, 'quick', sources)
    },
  },
  {
    name: '  of which: readPassages',
    inputs: async (run) => {
      const sources = searched(`engine cpu ${run}`, 'quick', 15)
      return async () => readPassages(sources, `engine cpu ${run}`, DEPTH.quick.passageCharacters)
    },
  },
  {
    name: '  of which: classifyRunClaims',
    inputs: async (run) => {
      // The step's own sources and model answer, made before the timing starts.
      const topic = `engine cpu ${run}`
      const pages = searched(topic, 'quick', 15)
      const reading = readPassages(pages, topic, DEPTH.quick.passageCharacters)
      const sources = reading.pages.map((page, position) => ({
        ...(pages[page.index] as SearchResult),
        id: position + 1,
        text: page.text,
      }))
      const input = { topic, focus: [], reportStyle: 'executive' as const, sources, knownFacts: [] }
      const signal = new AbortController().signal
      const { synthesis } = await model.synthesize(input, { signal })
      return () =>
        classifyRunClaims(
          { model },
          { topic, memory: undefined, synthesis, sources, onTopic: sourcesOnTopic(topic, sources), signal },
        )
    },
  },
  {
    name: 'deep run, synthesize step (40 pages)',
    inputs: async (run) => {
      const sources = searched(`engine cpu ${run}`, 'deep', 40)
      return () => firstRun(`engine cpu ${run}`, 'deep', sources)
    },
  },
  {
    name: '  of which: readPassages',
    inputs: async (run) => {
      const sources = searched(`engine cpu ${run}`, 'deep', 40)
      const { passageCharacters, contextCeiling } = DEPTH.deep
      return async () => readPassages(sources, `engine cpu ${run}`, passageCharacters, contextCeiling)
    },
  },
  {
    name: 'quick re-run against 5 runs of memory',
    inputs: async (run) => {
      const topic = `engine cpu ${run % 4}`
      const memory = await memoryAfter(topic, 5)
      const known = new Set(memory.ledger.map((entry) => entry.url))
      const sources = searched(topic, 'quick', 15, 5).filter((source) => !known.has(source.url))
      return () => reRun(topic, memory, sources)
    },
  },
]

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

async function measure(scenario: Scenario): Promise<{ ms: number; digest: string }> {
  const work = await Promise.all(Array.from({ length: RUNS }, (_, run) => scenario.inputs(run)))
  const hash = createHash('sha256')
  for (const run of work) hash.update(JSON.stringify(await run())) // what the runs give
  // A server has run the engine many times: the warm-up lets the JIT finish with it.
  for (let done = RUNS; done < WARM_UP_RUNS; done += RUNS) for (const run of work) await run()
  const times: number[] = []
  for (let rep = 0; rep < REPETITIONS; rep++) {
    // CPU time, not wall time: other processes on the machine slow the clock, not the work.
    const started = process.cpuUsage()
    for (const run of work) await run()
    const used = process.cpuUsage(started)
    times.push((used.user + used.system) / 1000 / RUNS)
  }
  if (args.times) process.stdout.write(`  each repetition: ${times.map((time) => time.toFixed(1)).join(' ')} ms\n`)
  return { ms: median(times), digest: hash.digest('hex').slice(0, 16) }
}

process.stdout.write(`Engine CPU per run (CPU time, median of ${REPETITIONS} x ${RUNS} runs, after a warm-up)\n\n`)
for (const scenario of scenarios.filter((scenario) => scenario.name.includes(args.only ?? ''))) {
  const { ms, digest } = await measure(scenario)
  const line = `${scenario.name.padEnd(42)} ${ms.toFixed(2).padStart(8)} ms`
  process.stdout.write(`${line}${args.digest ? `   results ${digest}` : ''}\n`)
}
