import { data, Form, useNavigation } from 'react-router'
import { AppShell } from '#app/components/app-shell.tsx'
import { REPORT_STYLE_LABELS, TIMEFRAME_LABELS } from '#app/components/brief-options.ts'
import { FocusedHeading } from '#app/components/focused-heading.tsx'
import { LocalTime } from '#app/components/local-time.tsx'
import { ReportView } from '#app/components/report-view.tsx'
import { StatusBadge } from '#app/components/status-badge.tsx'
import { StepTimeline, stepLabel, type TimelineEvent } from '#app/components/step-timeline.tsx'
import { useRunEvents } from '#app/components/use-run-events.ts'
import { servicesContext } from '#app/context.ts'
import { readFormData } from '#app/form-data.server.ts'
import { requireAccount } from '#app/session.server.ts'
import { budgetLimits } from '#server/vocabulary/budget.ts'
import { cadenceOf, describeCadence } from '#server/vocabulary/cadence.ts'
import { findFramework } from '#server/vocabulary/frameworks/index.ts'
import type { RunStatus } from '#server/vocabulary/runs.ts'
import { isFinalEvent, QUEUED_STEP } from '#server/vocabulary/runs.ts'
import type { Route } from './+types/dashboard-run'

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData ? `${loaderData.run.topic} · Sextant` : 'Run · Sextant' }]
}

export async function loader(args: Route.LoaderArgs) {
  const account = await requireAccount(args)
  const services = args.context.get(servicesContext)
  const page = await services.runs.page(account.id, args.params.runId)
  // Another account's run is "not found" too: saying it exists would leak that it does.
  if (!page) throw data(RUN_NOT_FOUND, { status: 404 })
  const { run, events, topicId } = page
  const framework = run.brief.frameworkId ? findFramework(run.brief.frameworkId) : undefined
  return {
    run,
    frameworkName: framework?.name ?? run.brief.frameworkId ?? null,
    // A recurring run's cadence as its brief says, or this server's default.
    cadence: run.brief.recurring ? describeCadence(cadenceOf(run.brief, services.config.RECURRING_INTERVAL)) : null,
    // Its memory page, once a run on the topic has saved some.
    topicId: topicId ?? null,
    events: events.map(({ id, type, step, data, createdAt }): TimelineEvent => ({ id, type, step, data, createdAt })),
  }
}

export async function action(args: Route.ActionArgs) {
  const account = await requireAccount(args)
  const form = await readFormData(args.request)
  if (form.get('intent') !== 'cancel') throw data('Unknown action.', { status: 400 })
  const outcome = await args.context.get(servicesContext).runs.cancel(account.id, args.params.runId, 'page')
  if (!outcome.ok && outcome.reason === 'not_found') throw data(RUN_NOT_FOUND, { status: 404 })
  // Already over (it finished while the button was pressed): the reloaded page says how it ended.
  return { cancelled: outcome.ok }
}

const RUN_NOT_FOUND = 'There is no run at this address for your account.'

export default function DashboardRun({ loaderData }: Route.ComponentProps) {
  // Keyed by run: moving from one run's page to another's starts a fresh event stream.
  return (
    <AppShell>
      <RunPage key={loaderData.run.runId} {...loaderData} />
    </AppShell>
  )
}

function RunPage({ run, frameworkName, topicId, cadence, events: loadedEvents }: Route.ComponentProps['loaderData']) {
  const { recurring } = run
  const events = useRunEvents(
    `/dashboard/runs/${encodeURIComponent(run.runId)}/events`,
    loadedEvents,
    run.status === 'running',
  )
  // The stream's final event is known before the reload that brings the report.
  const final = events.findLast((event) => isFinalEvent(event.type))
  const status: RunStatus = run.status !== 'running' ? run.status : final ? (final.type as RunStatus) : 'running'
  const currentStep =
    status === 'running' ? (events.findLast((event) => event.type === 'step_started')?.step ?? run.currentStep) : null
  const streamedError = final?.type === 'failed' ? (final.data.error as { message?: unknown } | undefined) : undefined
  const errorMessage =
    run.error?.message ?? (typeof streamedError?.message === 'string' ? streamedError.message : undefined)
  const brief = run.brief
  const budget = budgetLimits(brief)

  return (
    <article className="flex flex-col gap-6">
      <header className="flex flex-col gap-3">
        <a href="/dashboard" className="text-sm text-indigo-700 underline-offset-2 hover:underline">
          ← All runs
        </a>
        {/* Focus lands on the run once a brief starts it (or a link opens it), not at the top of the page. */}
        <FocusedHeading
          key={run.runId}
          id="run-heading"
          level={1}
          className="text-2xl font-semibold tracking-tight break-words"
        >
          {run.topic}
        </FocusedHeading>
        <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
          <StatusBadge status={status} step={currentStep} />
          {recurring && (recurring.state === 'sleeping' || recurring.state === 'paused') ? (
            <StatusBadge status={recurring.state} />
          ) : null}
          <span>
            {currentStep === QUEUED_STEP ? 'Queued' : 'Started'} <LocalTime iso={run.createdAt} />
            {run.finishedAt ? (
              <>
                {' '}
                · finished <LocalTime iso={run.finishedAt} />
              </>
            ) : null}
          </span>
          {topicId ? (
            <a href={`/dashboard/topics/${topicId}`} className="text-indigo-700 underline-offset-2 hover:underline">
              What memory holds on this topic
            </a>
          ) : null}
          {recurring ? (
            <a
              href={`/dashboard/series#series-${recurring.seriesId}`}
              className="text-indigo-700 underline-offset-2 hover:underline"
            >
              Manage this recurring brief
            </a>
          ) : null}
          {status === 'running' ? <CancelButton /> : null}
        </div>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <BriefItem term="Depth">
            {brief.depth === 'quick' ? 'Quick (about 45 s)' : 'Deep (about 90 s)'}
            {cadence ? `, ${cadence}` : ''}
          </BriefItem>
          <BriefItem term="Timeframe">{TIMEFRAME_LABELS[brief.timeframe]}</BriefItem>
          <BriefItem term="Report style">{REPORT_STYLE_LABELS[brief.reportStyle]}</BriefItem>
          <BriefItem term="Framework">{frameworkName ?? 'None'}</BriefItem>
          {brief.objective ? <BriefItem term="Objective">{brief.objective}</BriefItem> : null}
          {brief.focus ? <BriefItem term="Focus">{brief.focus}</BriefItem> : null}
          {budget ? <BriefItem term="Budget">{budget}</BriefItem> : null}
          {recurring?.state === 'sleeping' && recurring.nextRunAt ? (
            <BriefItem term="Next run">
              <LocalTime iso={recurring.nextRunAt} />
            </BriefItem>
          ) : null}
        </dl>
      </header>

      <div className="grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <section aria-labelledby="progress-heading" className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="progress-heading" className="mb-3 font-semibold">
            Progress
          </h2>
          <p aria-live="polite" className="sr-only">
            {status === 'running' ? `${currentStep ? stepLabel(currentStep) : 'Starting'}…` : `Run ${status}.`}
          </p>
          <StepTimeline events={events} status={status} reportSaysCorpus={Boolean(run.report?.generatedWith.corpus)} />
        </section>

        <div className="min-w-0">
          {status === 'running' ? (
            <p className="rounded-lg border border-sky-200 bg-sky-50 p-4 text-sm text-sky-950">
              {currentStep === QUEUED_STEP
                ? 'Waiting for a worker: every worker is busy, or this account already has as many runs going as it may have at once. The run starts by itself, and its report appears here when it finishes; you can leave this page.'
                : 'Researching now. The report appears here when the run finishes; you can leave this page, the run goes on without it.'}
            </p>
          ) : null}
          {status === 'failed' ? (
            <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
              <p className="font-semibold">This run failed.</p>
              <p className="mt-1">{errorMessage ?? 'No reason was recorded.'}</p>
            </div>
          ) : null}
          {status === 'cancelled' ? (
            <p className="rounded-lg border border-slate-300 bg-slate-100 p-4 text-sm text-slate-800">
              This run was cancelled before it finished, so it has no report.
            </p>
          ) : null}
          {status === 'complete' && run.report ? <ReportView report={run.report} /> : null}
          {status === 'complete' && !run.report ? (
            <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">
              Loading the report…
            </p>
          ) : null}
        </div>
      </div>
    </article>
  )
}

function CancelButton() {
  const navigation = useNavigation()
  const cancelling = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'cancel'
  return (
    <Form method="post" className="sm:ml-auto">
      <button
        type="submit"
        name="intent"
        value="cancel"
        disabled={cancelling}
        className="rounded-md border border-red-300 bg-white px-3 py-1 text-sm font-medium text-red-800 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-red-700 disabled:opacity-60"
      >
        {cancelling ? 'Cancelling…' : 'Cancel run'}
      </button>
    </Form>
  )
}

function BriefItem({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{term}</dt>
      <dd className="break-words text-slate-900">{children}</dd>
    </div>
  )
}
