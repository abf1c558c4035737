// What topic memory saves: two deep runs on the same topic, one after the other. The second plans the
// same searches, but the pages the first read are in the ledger and dropped before synthesis, so it
// sends the model fewer pages. Counted from what the stubs served (tokens, searches, results) and
// from the runs' own query_done events (pages new to the run).
import { type MeasuredRun, measureRun, type Scenario } from '#bench/scenario.ts'

type RunCost = {
  runId: string
  promptTokens: number
  completionTokens: number
  searches: number
  resultsReturned: number
  /** Results not in memory's ledger (nor seen earlier in the run): the pages given to synthesis. */
  newPages: number
  reportSources: number
}

export const memorySavingsScenario: Scenario = {
  name: 'memory savings',
  async run(context) {
    const topic = context.topic('memory')
    const costs: RunCost[] = []
    let before = context.stubs.servedFor(topic)
    for (let i = 0; i < 2; i++) {
      const run = await measureRun(context, { topic, depth: 'deep' })
      const after = context.stubs.servedFor(topic)
      const report = (await context.client.getRun(run.runId)).report
      costs.push({
        runId: run.runId,
        promptTokens: after.promptTokens - before.promptTokens,
        completionTokens: after.completionTokens - before.completionTokens,
        searches: after.searches - before.searches,
        resultsReturned: after.results - before.results,
        newPages: newPages(run),
        reportSources: report?.sources.length ?? 0,
      })
      before = after
    }
    const [first, second] = costs as [RunCost, RunCost]
    const tokens = (cost: RunCost) => cost.promptTokens + cost.completionTokens
    const change = (a: number, b: number) =>
      a === 0 ? 'n/a' : `${b - a >= 0 ? '+' : ''}${(((b - a) / a) * 100).toFixed(0)}%`
    const scenario = 'memory: run 2 vs run 1'
    return {
      rows: [
        {
          scenario,
          metric: 'model tokens (prompt + completion)',
          value: `${tokens(first)} -> ${tokens(second)} (${change(tokens(first), tokens(second))})`,
        },
        {
          scenario,
          metric: 'searches; results returned -> new pages synthesized',
          value: `${first.searches}; ${first.resultsReturned} -> ${first.newPages}  vs  ${second.searches}; ${second.resultsReturned} -> ${second.newPages} (${change(first.newPages, second.newPages)})`,
        },
      ],
      detail: { topic, runs: costs },
      failures: [],
    }
  },
}

function newPages(run: MeasuredRun): number {
  return run.events
    .filter((event) => event.type === 'query_done')
    .reduce((total, event) => total + Number(event.data.new ?? 0), 0)
}
