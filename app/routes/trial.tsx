import { data, redirect } from 'react-router'
import { AppShell } from '#app/components/app-shell.tsx'
import { fieldErrors } from '#app/components/form.tsx'
import { SearchScopeNote } from '#app/components/search-scope.tsx'
import { TrialBriefForm } from '#app/components/trial-brief-form.tsx'
import { TrialRun, type TrialRunData } from '#app/components/trial-run.tsx'
import { TrialRunList } from '#app/components/trial-run-list.tsx'
import { servicesContext } from '#app/context.ts'
import { readFormData } from '#app/form-data.server.ts'
import { refuseUnqueuedRun } from '#app/run-not-queued.server.ts'
import { searchScope } from '#app/search-scope.server.ts'
import { ensureTrialAccount, getTrialAccountId, trialClientIp, trialRefusalMessage } from '#app/trial.server.ts'
import { BriefSchema } from '#server/vocabulary/brief.ts'
import type { Route } from './+types/trial'

export function meta(_: Route.MetaArgs) {
  return [
    { title: 'Try Sextant' },
    {
      name: 'description',
      content: 'Run a quick research brief without an account: a cited report in about a minute.',
    },
  ]
}

export async function loader(args: Route.LoaderArgs) {
  const services = args.context.get(servicesContext)
  const requested = new URL(args.request.url).searchParams.get('run')
  const accountId = await getTrialAccountId(args)
  const perDay = services.config.RATE_LIMIT_DEMO_PER_DAY
  const scope = await searchScope(services)
  if (!accountId) {
    return data(
      { run: null, missing: requested !== null, events: [], previous: [], perDay, scope },
      { status: requested ? 404 : 200 },
    )
  }

  // With the account in the query, another visitor's run id finds nothing here.
  const [page, previous] = await Promise.all([
    requested ? services.runs.page(accountId, requested) : undefined,
    services.runs.list(accountId, { limit: 5 }),
  ])
  const view = page?.run
  const run: TrialRunData | null = view
    ? {
        runId: view.runId,
        topic: view.topic,
        status: view.status,
        currentStep: view.currentStep,
        createdAt: view.createdAt,
        report: view.report,
        error: view.error,
        objective: view.brief.objective,
        timeframe: view.brief.timeframe,
      }
    : null
  const missing = requested !== null && !run
  const events = page?.events ?? []
  return data({ run, missing, events, previous: previous.runs, perDay, scope }, { status: missing ? 404 : 200 })
}

export async function action(args: Route.ActionArgs) {
  const form = await readFormData(args.request)
  const values = {
    topic: String(form.get('topic') ?? ''),
    objective: String(form.get('objective') ?? ''),
    timeframe: String(form.get('timeframe') ?? ''),
  }
  const parsed = BriefSchema.safeParse({
    topic: values.topic,
    objective: values.objective.trim() || undefined,
    timeframe: values.timeframe || undefined,
    depth: 'quick',
    reportStyle: 'executive',
    source: 'trial',
  })
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error.issues), values }, { status: 400 })

  // Admitted before the account is made: a refused address cannot mint trial accounts either.
  let setCookie: string | undefined
  const { runs } = args.context.get(servicesContext)
  const outcome = await runs.start({
    requester: { kind: 'visitor', address: trialClientIp(args) },
    brief: parsed.data,
    account: {
      create: async () => {
        const trial = await ensureTrialAccount(args)
        setCookie = trial.setCookie
        return trial.accountId
      },
    },
  })
  if (!outcome.ok) {
    const refusal = refuseUnqueuedRun(outcome.refusal)
    const status = refusal.reason === 'rate_limited' ? 429 : 403
    return data({ errors: {}, values, limitMessage: trialRefusalMessage(refusal) }, { status })
  }
  const { runId } = outcome.run
  return redirect(`/trial?run=${runId}`, setCookie ? { headers: { 'Set-Cookie': setCookie } } : undefined)
}

export default function Trial({ loaderData, actionData }: Route.ComponentProps) {
  const { run, missing, events, previous, perDay, scope } = loaderData
  const errors: Record<string, string | undefined> = actionData?.errors ?? {}
  const limitMessage = actionData && 'limitMessage' in actionData ? actionData.limitMessage : undefined
  return (
    <AppShell>
      <div className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="flex min-w-0 flex-col gap-8">
          <header className="max-w-2xl">
            <h1 className="text-2xl font-semibold tracking-tight">Try Sextant</h1>
            <p className="mt-2 text-slate-700">
              Sextant researches a topic{scope === 'web' ? ' on the web' : ''}: it plans searches, reads what they find
              and writes a short report that cites every source. Run the same topic again later and it skips what it has
              read and tells you only what changed.
            </p>
            <div className="mt-3">
              <SearchScopeNote scope={scope} />
            </div>
            <ul className="mt-3 list-disc pl-5 text-sm text-slate-600">
              <li>Trial runs are quick: about a minute, with a short executive summary.</li>
              <li>Each address can start {perDay} trial runs per day.</li>
              <li>Results stay private to this browser: no account, just a cookie that finds your runs again.</li>
            </ul>
          </header>

          {missing ? (
            <p role="alert" className="rounded-md border border-slate-200 bg-white px-3 py-2 text-sm text-slate-700">
              There is no trial run with that address in this browser.
            </p>
          ) : null}

          {run ? <TrialRun run={run} events={events} /> : null}

          <section
            aria-labelledby="trial-form-heading"
            className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6"
          >
            <h2 id="trial-form-heading" className="text-lg font-semibold">
              {run ? 'Start another run' : 'Start a run'}
            </h2>
            <div className="mt-4">
              <TrialBriefForm
                // A new key empties the fields once a run has started from them.
                key={run?.runId ?? 'new'}
                errors={errors}
                values={actionData?.values ?? {}}
                limitMessage={limitMessage}
              />
            </div>
          </section>
        </div>

        <aside className="flex flex-col gap-4">
          <TrialRunList runs={previous} currentRunId={run?.runId} />
          <p className="text-sm text-slate-600">
            Want deeper runs, recurring briefs and an API key?{' '}
            <a className="font-medium text-indigo-700 underline" href="/signup">
              Create an account
            </a>
            .
          </p>
        </aside>
      </div>
    </AppShell>
  )
}
