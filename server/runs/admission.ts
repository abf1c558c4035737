// Whether a new run may start, for every surface that starts one (REST, MCP, the dashboard, the
// trial page, Slack and GitHub mentions): which limits apply to whom, and whether the brief may be
// recurring. A quota is spent only by a run that really starts: a refusal by a later limit, or a
// start that fails, gives back what the earlier limits counted.
import type { Db } from '#db/database.ts'
import type { LimitDecision, Limiter } from '#server/limits/limiter.ts'
import type { Limits } from '#server/limits/policies.ts'
import { limitRefusalMessage } from '#server/limits/refusal.ts'
import { RunNotQueuedError, type RunStart, readBeforeStart, type StartRunDeps, startRun } from '#server/runs/start.ts'
import type { Brief } from '#server/vocabulary/brief.ts'
import { cadenceField, scheduleProblem } from '#server/vocabulary/cadence.ts'

export type Requester =
  /** An account's own API key, dashboard session or local development auth, from `address`. */
  | {
      kind: 'member'
      address: string
      /** The server's own local account: a refusal names the setting that changes the limit. */
      operator?: boolean
    }
  /** The public demo key or the trial page: a daily budget per address, and no recurring briefs. */
  | { kind: 'visitor'; address: string }
  /** A Slack or GitHub mention for a linked account; `place` is the workspace or repository. */
  | { kind: 'mention'; accountId: string; place: string }

export type Refusal =
  | { reason: 'recurring'; message: string }
  /** The cadence asked for is outside the allowed range (SCHEDULE_MIN_INTERVAL to 30 days). */
  | { reason: 'schedule'; message: string; field: 'every' | 'cron' }
  /** The brief's webhookUrl may not receive webhooks (not https, or not a public address). */
  | { reason: 'webhook'; message: string; field: 'webhookUrl' }
  | { reason: 'rate_limited'; decision: LimitDecision; message: string }
  /**
   * The run could not be queued (the job system stopped, the database short of disk): nothing was
   * written or counted, and the same brief can be sent again after `retryAfterSeconds`.
   */
  | { reason: 'not_queued'; message: string; retryAfterSeconds: number }

export type Admission =
  | { ok: true; decisions: LimitDecision[]; release: () => Promise<void> }
  | { ok: false; refusal: Refusal }

export const RECURRING_NEEDS_ACCOUNT =
  'Recurring briefs need an account of your own: the demo key and the trial start single runs only. Sign up to schedule one.'

function limitsFor(limits: Limits, requester: Requester): Array<[Limiter, string]> {
  switch (requester.kind) {
    case 'member':
      return [[limits.runs, requester.address]]
    case 'visitor':
      return [
        [limits.demo, requester.address],
        [limits.runs, requester.address],
      ]
    case 'mention':
      return [
        [limits.mentions, requester.place],
        [limits.mentionsAccount, requester.accountId],
      ]
  }
}

/** Decides, and counts against each limit; call `release` if the run then does not start. */
async function admitRun(limits: Limits, requester: Requester, brief: Brief): Promise<Admission> {
  if (requester.kind === 'visitor' && brief.recurring) {
    return { ok: false, refusal: { reason: 'recurring', message: RECURRING_NEEDS_ACCOUNT } }
  }
  const counted: Array<{ limiter: Limiter; subject: string; decision: LimitDecision }> = []
  const release = async () => {
    await Promise.all(counted.map(({ limiter, subject, decision }) => limiter.refund(subject, decision)))
  }
  for (const [limiter, subject] of limitsFor(limits, requester)) {
    const decision = await limiter.check(subject)
    if (!decision.allowed) {
      await release()
      const operator = requester.kind === 'member' && requester.operator === true
      return {
        ok: false,
        refusal: { reason: 'rate_limited', decision, message: limitRefusalMessage(decision, { operator }) },
      }
    }
    counted.push({ limiter, subject, decision })
  }
  return { ok: true, decisions: counted.map(({ decision }) => decision), release }
}

export type AdmittedStart =
  | {
      ok: true
      run: RunStart
      decisions: LimitDecision[]
      /** Gives back what the limits counted, for a start in `trx` whose transaction then fails. */
      release: () => Promise<void>
    }
  | { ok: false; refusal: Refusal }

export type AdmissionDeps = StartRunDeps & {
  limits: Limits
  /** SCHEDULE_MIN_INTERVAL: the shortest time a recurring brief may ask for between its runs. */
  scheduleMinSeconds: number
  /**
   * Why a brief's webhookUrl may not receive webhooks (a phrase after "webhookUrl"), or undefined:
   * the page reader's address rules (server/notify/webhooks/target.ts). Without it, a brief
   * with a webhookUrl is refused.
   */
  webhookUrlProblem?: (url: string) => Promise<string | undefined>
}

/**
 * Admits and starts a run: the one way every surface starts one. `accountId` may be a function: a
 * visitor's account is then made only once the run is admitted, so a refused visitor leaves nothing
 * behind. With `trx` (a mention, a series run now), the run is written in the caller's
 * transaction; `series` makes it that series' run of a slot.
 */
export async function startAdmittedRun(
  deps: AdmissionDeps,
  input: {
    requester: Requester
    brief: Brief
    accountId: string | (() => Promise<string>)
    trx?: Db
    series?: { id: string; slot: number }
  },
): Promise<AdmittedStart> {
  const problem = input.brief.recurring ? scheduleProblem(input.brief, deps.scheduleMinSeconds) : undefined
  if (problem) return { ok: false, refusal: { reason: 'schedule', message: problem, field: cadenceField(input.brief) } }
  const webhookProblem = await webhookUrlRefusal(deps, input.requester, input.brief)
  if (webhookProblem) return { ok: false, refusal: { reason: 'webhook', message: webhookProblem, field: 'webhookUrl' } }
  // An account that exists already: the start's reads go while the limits count (a refused start
  // has then read, not written). A visitor's account is made only once admitted, and read after.
  const reads = typeof input.accountId === 'string' ? readBeforeStart(deps, input.accountId, input.brief) : undefined
  reads?.catch(() => undefined) // a refusal leaves them unawaited; startRun meets their failure
  const admission = await admitRun(deps.limits, input.requester, input.brief)
  if (!admission.ok) return admission
  try {
    const accountId = typeof input.accountId === 'string' ? input.accountId : await input.accountId()
    const run = await startRun(deps, accountId, input.brief, { trx: input.trx, series: input.series, reads })
    return { ok: true, run, decisions: admission.decisions, release: admission.release }
  } catch (error) {
    await admission.release().catch(() => {})
    // In the caller's transaction the failure is the caller's to roll back (and say, or retry).
    if (input.trx || !(error instanceof RunNotQueuedError)) throw error
    deps.memory.log.error({ err: error }, 'a run could not be queued')
    return { ok: false, refusal: notQueuedRefusal(error) }
  }
}

/** A start the database or the job system could not write, as the refusal every surface says. */
export function notQueuedRefusal(error: RunNotQueuedError): Refusal {
  const wait = error.retryAfterSeconds
  return {
    reason: 'not_queued',
    message: `The run could not be queued, so none was started. Try again in ${wait} seconds.`,
    retryAfterSeconds: wait,
  }
}

/** Checked before any limit counts, so a brief with a bad webhookUrl spends nothing. */
async function webhookUrlRefusal(deps: AdmissionDeps, requester: Requester, brief: Brief): Promise<string | undefined> {
  if (brief.webhookUrl === undefined) return undefined
  if (requester.kind === 'visitor') {
    return "webhookUrl needs an account of your own: its events are signed with your account's secret. Sign up to use it."
  }
  const why = deps.webhookUrlProblem ? await deps.webhookUrlProblem(brief.webhookUrl) : 'is not accepted here'
  return why && `webhookUrl ${why}`
}
