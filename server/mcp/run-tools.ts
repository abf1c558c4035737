// The MCP tools for runs: start one (research_brief, which can stream its progress), its status, and
// its report. Each is one service call: runs.start admits it as for every surface, runs.get reads
// the caller's run as API clients see it (corpus sources linked to their pages on this server).
import { z } from 'zod'
import { RunReportOutput, RunStartOutput, RunStatusOutput } from '#server/contracts/mcp.ts'
import { ok, problem, type ToolContext } from '#server/mcp/tool-context.ts'
import { quoted, sourcesText, withoutControls } from '#server/mcp/tool-text.ts'
import type { RunView } from '#server/runs/contract.ts'
import { ClientBriefSchema } from '#server/vocabulary/brief.ts'
import { isFinalEvent, QUEUED_STEP } from '#server/vocabulary/runs.ts'

const MAX_WAIT_MS = 50_000 // below the ~60 s at which MCP clients give up on a tool call
const TOTAL_PROGRESS = 5 // the five steps of a run

const runIdInput = { runId: z.string().describe('The runId research_brief returned.') }

function noRun(runId: string) {
  return problem(
    `There is no run ${quoted(runId)} for this API key. Start one with research_brief, or list runs in the dashboard.`,
  )
}

/** What a running run is doing, for a reply that cannot give its report yet. */
function runningNow(step: string | null): string {
  return step === QUEUED_STEP ? 'queued, waiting for a worker' : `still running (step ${step ?? 'starting'})`
}

function runStatus(run: RunView) {
  return {
    runId: run.runId,
    topic: run.topic,
    status: run.status,
    currentStep: run.currentStep,
    createdAt: run.createdAt,
    finishedAt: run.finishedAt,
    ...(run.error ? { error: run.error } : {}),
  }
}

export function registerRunTools({ services, caller, registerTool }: ToolContext): void {
  registerTool(
    'research_brief',
    {
      title: 'Start research',
      description:
        'Starts a durable web research run on a topic and returns its runId at once; the run keeps going on the server. ' +
        'Poll get_run_status until status is complete, then read get_run_report. With wait: true and a progress token, ' +
        'progress is streamed and the call returns when the run ends or after about 50 s, whichever is first. ' +
        'Later runs on the same topic skip pages already read and report what changed. ' +
        'maxTokens and maxCostDollars cap what the run may spend; a run that reaches its budget stops spending ' +
        'and reports with what it has, saying so. ' +
        'recurring: true makes it a series that runs again every 7 days, or as every says ("6h", "1d"; 1h to 30d) ' +
        'or on a cron expression read in timeZone ("0 9 * * 1", "Europe/Berlin"); notify "changes" (the default) ' +
        'delivers only runs that found something new, updated or contradicted, "always" every run.',
      inputSchema: {
        ...ClientBriefSchema.shape,
        source: ClientBriefSchema.shape.source.default('mcp'),
        wait: z
          .boolean()
          .default(false)
          .describe('Stream progress (needs a progress token) and return when done, up to ~50 s.'),
      },
      outputSchema: RunStartOutput,
    },
    async ({ wait, ...input }, extra) => {
      const parsed = ClientBriefSchema.safeParse(input)
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'brief'}: ${issue.message}`)
        return problem(`The brief is not valid: ${withoutControls(issues.join('; '))}`)
      }
      const outcome = await services.runs.start({
        requester: caller.requester,
        brief: parsed.data,
        account: caller.visitor ? { visitor: caller.visitor } : { id: caller.accountId },
      })
      if (!outcome.ok) return problem(outcome.refusal.message)
      const started = outcome.run
      const progressToken = extra._meta?.progressToken
      if (!wait || progressToken === undefined) return ok(RunStartOutput, started)

      // Stream the run's steps as progress notifications until it ends or the wait runs out.
      let done = 0
      await new Promise<void>((resolve) => {
        const timer = setTimeout(finish, MAX_WAIT_MS)
        const unsubscribe = services.live.subscribe(started.runId, (event) => {
          if (event.type === 'step_finished') done += 1
          void extra
            .sendNotification({
              method: 'notifications/progress',
              params: {
                progressToken,
                progress: done,
                total: TOTAL_PROGRESS,
                message: `${event.type}${event.step ? ` ${event.step}` : ''}`,
              },
            })
            .catch(() => {})
          if (isFinalEvent(event.type)) finish()
        })
        extra.signal.addEventListener('abort', finish)
        function finish() {
          clearTimeout(timer)
          unsubscribe()
          resolve()
        }
      })
      const run = await services.runs.get(caller.accountId, started.runId, 'client')
      return ok(RunStartOutput, { ...started, status: run?.status ?? 'running', currentStep: run?.currentStep ?? null })
    },
  )

  registerTool(
    'get_run_status',
    {
      title: 'Run status',
      description:
        "A run's status (running, complete, failed, cancelled) and the step it is on: `queued` while it waits for a worker.",
      inputSchema: runIdInput,
      outputSchema: RunStatusOutput,
      annotations: { readOnlyHint: true },
    },
    async ({ runId }) => {
      const run = await services.runs.get(caller.accountId, runId, 'client')
      return run ? ok(RunStatusOutput, runStatus(run)) : noRun(runId)
    },
  )

  registerTool(
    'get_run_report',
    {
      title: 'Run report',
      description:
        'The report of a complete run: summary (markdown with [n] citations, led by what changed), delta (new, updated and contradicted claims with their quotes; confirmed counted), sources and integrity (claims not shown because their quote is on no page).',
      inputSchema: runIdInput,
      outputSchema: RunReportOutput,
      annotations: { readOnlyHint: true },
    },
    async ({ runId }) => {
      const run = await services.runs.get(caller.accountId, runId, 'client')
      if (!run) return noRun(runId)
      if (run.status !== 'complete' || !run.report) {
        const detail =
          run.status === 'running'
            ? `${runningNow(run.currentStep)}; call get_run_status until it is complete`
            : `${run.status}${run.error ? `: ${run.error.message}` : ''}; start a new run with research_brief`
        return problem(`The run has no report yet: it is ${detail}.`)
      }
      const { summary, delta, sources, integrity, generatedWith, notice } = run.report
      return ok(
        RunReportOutput,
        { runId, topic: run.topic, summary, delta, sources, integrity, generatedWith, ...(notice ? { notice } : {}) },
        // The notice first: a model reading the answer must not take invented articles for the web.
        `${notice ? `Note: ${notice}\n\n` : ''}${summary}\n\n${delta.summary}\n\n${sourcesText(sources)}`,
      )
    },
  )
}
