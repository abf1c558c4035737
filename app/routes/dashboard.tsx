import { data, redirect } from 'react-router'
import { scheduleLimits, scheduleRefusalErrors } from '#app/cadence-form.server.ts'
import { AppShell } from '#app/components/app-shell.tsx'
import { BriefForm } from '#app/components/brief-form.tsx'
import { RunList } from '#app/components/run-list.tsx'
import { useLiveList } from '#app/components/use-live-list.ts'
import { requestInfoContext, servicesContext } from '#app/context.ts'
import {
  briefFormErrors,
  budgetDefaults,
  frameworkOptions,
  readBriefForm,
  runLimitRefusal,
} from '#app/dashboard.server.ts'
import { readFormData } from '#app/form-data.server.ts'
import { refuseUnqueuedRun } from '#app/run-not-queued.server.ts'
import { requireAccount } from '#app/session.server.ts'
import { ClientBriefSchema } from '#server/vocabulary/brief.ts'
import type { Route } from './+types/dashboard'

export function meta(_: Route.MetaArgs) {
  return [{ title: 'Dashboard · Sextant' }]
}

export async function loader(args: Route.LoaderArgs) {
  const account = await requireAccount(args)
  const { runs, config } = args.context.get(servicesContext)
  return {
    runs: await runs.dashboard(account.id),
    ...frameworkOptions(),
    budgetDefaults: budgetDefaults(config),
    schedule: scheduleLimits(config),
  }
}

export async function action(args: Route.ActionArgs) {
  const account = await requireAccount(args)
  const services = args.context.get(servicesContext)
  const { values, input } = readBriefForm(await readFormData(args.request))
  const minSeconds = services.config.SCHEDULE_MIN_INTERVAL
  const parsed = ClientBriefSchema.safeParse(input)
  if (!parsed.success) {
    return data({ values, errors: briefFormErrors(parsed.error.issues, minSeconds), limit: null }, { status: 400 })
  }
  // Admitted after validation, so fixing a typo in the form does not spend a run.
  const outcome = await services.runs.start({
    requester: {
      kind: 'member',
      address: args.context.get(requestInfoContext).ip,
      operator: account.kind === 'local',
    },
    brief: parsed.data,
    account: { id: account.id },
  })
  if (!outcome.ok) {
    const refusal = refuseUnqueuedRun(outcome.refusal)
    if (refusal.reason === 'schedule') {
      const errors = scheduleRefusalErrors(refusal.message, parsed.data, minSeconds)
      return data({ values, errors, limit: null }, { status: 400 })
    }
    if (refusal.reason !== 'rate_limited')
      return data({ values, errors: { form: refusal.message }, limit: null }, { status: 403 })
    return data(
      { values, errors: {}, limit: runLimitRefusal(refusal.decision, refusal.message) },
      { status: 429, headers: { 'Retry-After': String(Math.max(1, refusal.decision.retryAfterSeconds)) } },
    )
  }
  return redirect(`/dashboard/runs/${outcome.run.runId}`)
}

/** The action's Retry-After reaches the page that says to wait. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  const retryAfter = actionHeaders.get('Retry-After')
  return retryAfter ? { 'Retry-After': retryAfter } : {}
}

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const runs = useLiveList('/dashboard/events', loaderData.runs)
  return (
    <AppShell>
      <h1 className="text-2xl font-semibold tracking-tight">Dashboard</h1>
      <div className="mt-6 flex flex-col gap-10">
        <section aria-labelledby="new-brief-heading" className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
          <h2 id="new-brief-heading" className="mb-4 text-lg font-semibold">
            New research brief
          </h2>
          <BriefForm
            frameworks={loaderData.frameworks}
            categories={loaderData.categories}
            values={actionData?.values}
            errors={actionData?.errors}
            limit={actionData?.limit}
            budgetDefaults={loaderData.budgetDefaults}
            schedule={loaderData.schedule}
          />
        </section>
        <section aria-labelledby="runs-heading">
          <h2 id="runs-heading" className="mb-3 text-lg font-semibold">
            Runs
          </h2>
          <RunList runs={runs} />
        </section>
      </div>
    </AppShell>
  )
}
