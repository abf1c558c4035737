// The recurring briefs page's "Save schedule" and "Run now": one service call each, and the answers in
// words for the page (statuses as a browser expects them: 400, 404, 409, 429 with Retry-After).
import { data, redirect } from 'react-router'
import { z } from 'zod'
import { cadenceFieldMessage, readCadenceForm, scheduleRefusalErrors } from '#app/cadence-form.server.ts'
import type { SeriesActionResult } from '#app/components/series-card.tsx'
import { runLimitRefusal } from '#app/dashboard.server.ts'
import { refuseUnqueuedRun } from '#app/run-not-queued.server.ts'
import type { Account } from '#server/accounts/contract.ts'
import type { WebServices } from '#server/services.ts'
import { BriefSchema } from '#server/vocabulary/brief.ts'
import { formatEvery } from '#server/vocabulary/cadence.ts'

const NOT_FOUND = 'There is no such recurring brief for your account.'
const STOPPED = 'This recurring brief was stopped; start a new brief instead.'

const CadenceSchema = z.object({
  every: BriefSchema.shape.every,
  cron: BriefSchema.shape.cron,
  timeZone: BriefSchema.shape.timeZone,
  notify: BriefSchema.shape.notify,
})

const RUN_NOW_CONFLICT = {
  running: 'A run of this recurring brief is going now; wait for it to end, then run it again.',
  paused: 'This recurring brief is paused: resume it first, then run it now.',
  cancelled: STOPPED,
  sleeping: 'This recurring brief cannot run just now; try again in a moment.',
} as const

export async function updateSchedule(services: WebServices, account: Account, seriesId: string, form: FormData) {
  const { values, input } = readCadenceForm(form)
  const minSeconds = services.config.SCHEDULE_MIN_INTERVAL
  const fail = (status: number, result: Omit<SeriesActionResult, 'seriesId' | 'values'>) =>
    data<SeriesActionResult>({ seriesId, values, ...result }, { status })
  // The default choice on a series that has its own cadence goes back to the default; on one that has
  // none, it leaves the cadence as it is.
  if (input.every === undefined && input.cron === undefined) {
    const series = await services.series.get(account.id, seriesId)
    if (!series) return fail(404, { error: NOT_FOUND })
    if (series.cadence.every !== null || series.cadence.cron !== null) {
      input.every = formatEvery(services.config.RECURRING_INTERVAL)
    }
  }
  const parsed = CadenceSchema.safeParse(input)
  if (!parsed.success) {
    const errors: Record<string, string> = {}
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? 'cadence')
      errors[field] ??= cadenceFieldMessage(field, minSeconds) ?? 'Check this field and try again.'
    }
    return fail(400, { error: null, errors })
  }
  const outcome = await services.series.update(account.id, seriesId, parsed.data)
  if (outcome.ok) return { seriesId, error: null, saved: true } satisfies SeriesActionResult
  if (outcome.reason === 'not_found') return fail(404, { error: NOT_FOUND })
  if (outcome.reason === 'schedule') {
    return fail(400, { error: null, errors: scheduleRefusalErrors(outcome.message, parsed.data, minSeconds) })
  }
  return fail(409, { error: STOPPED })
}

export async function runSeriesNow(services: WebServices, account: Account, seriesId: string, address: string) {
  const outcome = await services.series.runNow({
    accountId: account.id,
    seriesId,
    requester: { kind: 'member', address, operator: account.kind === 'local' },
    source: 'dashboard',
  })
  if (outcome.ok) return redirect(`/dashboard/runs/${outcome.run.runId}`)
  if (outcome.reason === 'not_found') return data<SeriesActionResult>({ seriesId, error: NOT_FOUND }, { status: 404 })
  if (outcome.reason !== 'refused') {
    return data<SeriesActionResult>({ seriesId, error: RUN_NOW_CONFLICT[outcome.reason] }, { status: 409 })
  }
  const refusal = refuseUnqueuedRun(outcome.refusal)
  if (refusal.reason !== 'rate_limited') {
    return data<SeriesActionResult>(
      { seriesId, error: refusal.message },
      { status: refusal.reason === 'schedule' ? 400 : 403 },
    )
  }
  const wait = Math.max(1, refusal.decision.retryAfterSeconds)
  return data<SeriesActionResult>(
    { seriesId, error: null, limit: runLimitRefusal(refusal.decision, refusal.message) },
    { status: 429, headers: { 'Retry-After': String(wait) } },
  )
}
