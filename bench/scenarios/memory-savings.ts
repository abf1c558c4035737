// What topic memory saves, by how much of the web is new (issue 17). Two deep runs on one topic, one
// after the other, on a web where none of each query's pages are new the second time, then on one
// where a fifth are, then on one where the new pages only restate what the old ones led with: the
// second run should cost what is new. Tokens are counted from what the stub
// model served for the run's topic, not from the engine's own accounting. And the prompt with 2,000
// claims in memory against an empty memory's: the engine's digest and prompt builders, in this
// process, against the same stub model.
import { type MeasuredRun, measureRun, type Scenario } from '#bench/scenario.ts'
import { createOpenAiModel } from '#server/providers/llm/openai.ts'
import type { SourceForSynthesis } from '#server/providers/types.ts'
import { memoryDigest } from '#server/research/digest.ts'
import type { Fact } from '#server/topics/contract.ts'
import { upgradeFact } from '#server/topics/facts.ts'

type RunCost = {
  runId: string
  tokens: number
  searches: number
  resultsReturned: number
  /** Results not in memory's ledger (nor seen earlier in the run): the pages given to synthesis. */
  newPages: number
  charactersRead: number
  tokensByKind: Record<string, number>
}

const WEBS = [
  { label: 'unchanged web', newShare: 0, restating: false, target: 0.2 },
  { label: 'a fifth of pages new', newShare: 0.2, restating: false, target: 0.5 },
  // Issue 40, item 9: new URLs whose every fact is one memory holds, in other words.
  { label: 'new pages only restate', newShare: 0.4, restating: true, target: 0.3 },
] as const
/** Claims in the large memory, and how far (in tokens) its prompt may be from an empty memory's. */
const LARGE_MEMORY = 2000
const PROMPT_GROWTH_TARGET = 2000

export const memorySavingsScenario: Scenario = {
  name: 'memory savings',
  async run(context) {
    const rows = []
    const detail: Record<string, unknown> = {}
    const failures: string[] = []
    for (const web of WEBS) {
      const topic = context.topic(`memory ${web.label}`)
      await context.stubs.setNewShare(topic, web.newShare, web.restating)
      const costs: RunCost[] = []
      let before = await context.stubs.servedFor(topic)
      for (let i = 0; i < 2; i++) {
        const run = await measureRun(context, { topic, depth: 'deep', timeframe: 'all' })
        const after = await context.stubs.servedFor(topic)
        const report = (await context.client.getRun(run.runId)).report
        costs.push({
          runId: run.runId,
          tokens: after.promptTokens + after.completionTokens - before.promptTokens - before.completionTokens,
          searches: after.searches - before.searches,
          resultsReturned: after.results - before.results,
          newPages: newPages(run),
          charactersRead: report?.usage.charactersRead ?? 0,
          tokensByKind: Object.fromEntries(
            Object.entries(after.byKind).map(([kind, tokens]) => [kind, tokens - (before.byKind[kind] ?? 0)]),
          ),
        })
        before = after
      }
      const [first, second] = costs as [RunCost, RunCost]
      const ratio = first.tokens === 0 ? Number.NaN : second.tokens / first.tokens
      const scenario = `memory: ${web.label}`
      rows.push(
        {
          scenario,
          metric: 'model tokens: run 1 -> run 2 (share)',
          value: `${first.tokens} -> ${second.tokens} (${(ratio * 100).toFixed(0)}%)`,
          target: `<= ${web.target * 100}%`,
          met: ratio <= web.target,
        },
        {
          scenario,
          metric: 'searches; results -> new pages; characters read',
          value: `${first.searches}; ${first.resultsReturned} -> ${first.newPages}; ${first.charactersRead}  vs  ${second.searches}; ${second.resultsReturned} -> ${second.newPages}; ${second.charactersRead}`,
        },
      )
      detail[web.label] = { topic, runs: costs }
    }

    const prompts = await promptGrowth(
      context.stubs.env.OPENAI_BASE_URL as string,
      context.stubs.env.OPENAI_API_KEY as string,
      context,
    )
    const growth = prompts.large - prompts.empty
    rows.push({
      scenario: 'memory: prompt size',
      metric: `synthesis prompt tokens, empty memory -> ${LARGE_MEMORY} claims`,
      value: `${prompts.empty} -> ${prompts.large} (+${growth})`,
      target: `<= +${PROMPT_GROWTH_TARGET}`,
      met: growth <= PROMPT_GROWTH_TARGET,
    })
    detail.prompts = prompts
    return { rows, detail, failures }
  },
}

/**
 * The synthesis prompt of one deep run's pages with an empty memory and with 2,000 claims, as the
 * stub model counts it: the digest (server/research/digest.ts) is what keeps the two close.
 */
async function promptGrowth(
  baseUrl: string,
  apiKey: string,
  context: Parameters<Scenario['run']>[0],
): Promise<{ empty: number; large: number }> {
  const topic = context.topic('memory prompt')
  const model = createOpenAiModel({ apiKey, baseUrl, model: 'gpt-4.1-mini', embeddingModel: 'none', timeoutMs: 30_000 })
  const sources: SourceForSynthesis[] = Array.from({ length: 20 }, (_, i) => ({
    id: i + 1,
    url: `https://prompt.bench.example/${i}`,
    title: `${topic} page ${i}`,
    publishedDate: null,
    text: `${topic}, page ${i}: the operator reported capacity of ${100 + i} MW in Norway for 2026.`.repeat(20),
  }))
  const facts: Fact[] = Array.from({ length: LARGE_MEMORY }, (_, i) =>
    upgradeFact({
      id: `f${i}`,
      text: `${topic} claim ${i}: a regional utility measured output of ${i} MW in Texas for ${2020 + (i % 7)}.`,
      sourceUrls: [],
      firstSeen: { runId: 'r', at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString() },
    }),
  )
  const runs = [{ runId: 'r', at: '2026-11-16T10:00:00.000Z', newFacts: 1, newSources: 1, urlsRead: 1, summary: 'x' }]
  const about = [topic, ...sources.map((source) => source.text)].join('\n')
  const tokensWith = async (memory: { facts: Fact[]; runs: typeof runs } | undefined) => {
    const before = (await context.stubs.servedFor(topic)).promptTokens
    const digest = memoryDigest(memory, about)
    await model.synthesize(
      {
        topic,
        focus: [],
        reportStyle: 'executive',
        depth: 'deep',
        sources,
        knownFacts: digest.facts,
        recentRuns: digest.recentRuns,
        today: new Date().toISOString().slice(0, 10),
      },
      { signal: AbortSignal.timeout(60_000) },
    )
    return (await context.stubs.servedFor(topic)).promptTokens - before
  }
  return { empty: await tokensWith(undefined), large: await tokensWith({ facts, runs }) }
}

function newPages(run: MeasuredRun): number {
  return run.events
    .filter((event) => event.type === 'query_done')
    .reduce((total, event) => total + Number(event.data.new ?? 0), 0)
}
