// One trial run on the trial page: its brief, live progress, and the report or why it stopped.
import { useEffect, useRef } from 'react'
import { ReportView } from '#app/components/report-view.tsx'
import { StepTimeline, stepLabel } from '#app/components/step-timeline.tsx'
import { useRunEvents } from '#app/components/use-run-events.ts'
import type { RunEvent, RunView } from '#server/runs/contract.ts'
import type { RunStatus } from '#server/vocabulary/runs.ts'
import { isFinalEvent } from '#server/vocabulary/runs.ts'

export type TrialRunData = Pick<
  RunView,
  'runId' | 'topic' | 'status' | 'currentStep' | 'createdAt' | 'report' | 'error'
> & {
  objective?: string
  timeframe: string
}

export function TrialRun({ run, events }: { run: TrialRunData; events: RunEvent[] }) {
  const heading = useRef<HTMLHeadingElement>(null)
  // After starting a run or picking another, take focus to it, so keyboard and screen-reader
  // users land on what changed rather than on a form field further down.
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves when the run changes, not on revalidation
  useEffect(() => {
    heading.current?.focus()
  }, [run.runId])

  return (
    <article aria-labelledby="trial-run-heading" className="flex flex-col gap-6">
      <header>
        <p className="text-sm font-medium text-indigo-700">Trial run · {formatTime(run.createdAt)}</p>
        <h2
          id="trial-run-heading"
          ref={heading}
          tabIndex={-1}
          className="mt-1 text-xl font-semibold break-words outline-none"
        >
          {run.topic}
        </h2>
        {run.objective ? <p className="mt-1 text-slate-600">{run.objective}</p> : null}
      </header>
      <TrialProgress
        key={run.runId}
        runId={run.runId}
        status={run.status}
        currentStep={run.currentStep}
        loaded={events}
        reportSaysCorpus={Boolean(run.report?.generatedWith.corpus)}
      />
      {run.status === 'failed' ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {run.error?.message ?? 'The run failed.'} Trial runs that fail still count toward today's limit.
        </p>
      ) : null}
      {run.report ? <ReportView report={run.report} /> : null}
    </article>
  )
}

/** The run's steps, live over the trial's own event stream (authenticated by the trial cookie). */
function TrialProgress({
  runId,
  status,
  currentStep,
  loaded,
  reportSaysCorpus,
}: {
  runId: string
  status: RunStatus
  /** The step the page was loaded at: `queued` while no worker has taken the run. */
  currentStep: string | null
  loaded: RunEvent[]
  reportSaysCorpus: boolean
}) {
  const events = useRunEvents(`/trial/runs/${encodeURIComponent(runId)}/events`, loaded, status === 'running')
  // The stream's final event is known before the reload that brings the report.
  const final = events.findLast((event) => isFinalEvent(event.type))
  const current: RunStatus = status !== 'running' ? status : final ? (final.type as RunStatus) : 'running'
  const step = events.findLast((event) => event.type === 'step_started')?.step ?? currentStep
  return (
    <section
      aria-labelledby="trial-progress-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
    >
      <h2 id="trial-progress-heading" className="mb-3 text-lg font-semibold">
        Progress
      </h2>
      {/* What a screen reader hears as the run goes on: each step, then how it ended. */}
      <p aria-live="polite" className="sr-only">
        {current === 'running'
          ? `${step ? stepLabel(step) : 'Starting'}…`
          : current === 'complete'
            ? 'Run complete. The report is below.'
            : `Run ${current}.`}
      </p>
      <StepTimeline events={events} status={current} reportSaysCorpus={reportSaysCorpus} />
    </section>
  )
}

/** UTC, so the server's render and the browser's agree. */
export function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
}
