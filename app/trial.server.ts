// The no-login trial's server side: which trial account this browser is, and what to say when its
// address may not start another run today.
import type { RouterContextProvider } from 'react-router'
import { requestInfoContext, servicesContext } from '#app/context.ts'
import { readCookie, TRIAL_COOKIE, trialCookie } from '#server/accounts/contract.ts'
import type { LimitDecision } from '#server/limits/limiter.ts'
import { describeWait } from '#server/limits/refusal.ts'
import type { Refusal } from '#server/runs/service.ts'

type Args = { request: Request; context: Readonly<RouterContextProvider> }

/** This browser's trial account, if its cookie names one. */
export async function getTrialAccountId({ request, context }: Args): Promise<string | undefined> {
  const token = readCookie(request.headers.get('cookie'), TRIAL_COOKIE)
  if (!token) return undefined
  return context.get(servicesContext).accounts.trial.find(token)
}

/** The visitor's trial account, created on first use; `setCookie` is set when a new one was made. */
export async function ensureTrialAccount(args: Args): Promise<{ accountId: string; setCookie?: string }> {
  const existing = await getTrialAccountId(args)
  if (existing) return { accountId: existing }
  const { token, accountId } = await args.context.get(servicesContext).accounts.trial.create()
  return { accountId, setCookie: trialCookie(token, isSecure(args)) }
}

/**
 * The address trial limits count against. The Express server derives it (socket address, or the
 * proxy headers when TRUST_PROXY says how many proxies to believe) and passes it in the context;
 * reading headers here would let any visitor pick their own bucket.
 */
export function trialClientIp({ context }: Pick<Args, 'context'>): string {
  return context.get(requestInfoContext).ip || 'unknown'
}

/** The page's words for a refused trial run: the daily trial budget, or the hourly run limit. */
export function trialRefusalMessage(refusal: Refusal): string {
  if (refusal.reason !== 'rate_limited') return refusal.message
  const { decision } = refusal
  if (decision.policy.name === 'demo') {
    return `You have used today's ${decision.policy.limit} trial runs from this address. You can start another ${whenAllowed(decision)}.`
  }
  return `${decision.policy.description} You can start another ${whenAllowed(decision)}.`
}

/** "in 5 hours, at 14:20 UTC" (plus the day when it is not today): the wait reads right in any time zone. */
export function whenAllowed(decision: Pick<LimitDecision, 'retryAfterSeconds' | 'checkedAt'>): string {
  const seconds = Math.max(1, decision.retryAfterSeconds)
  const at = new Date(decision.checkedAt.getTime() + seconds * 1000)
  const time = at.toISOString().slice(11, 16)
  const sameDay = at.toISOString().slice(0, 10) === decision.checkedAt.toISOString().slice(0, 10)
  const day = sameDay ? '' : ` on ${at.toUTCString().slice(0, 11)}`
  return `in ${describeWait(seconds)}, at ${time} UTC${day}`
}

// As in app/session.server.ts: a Secure cookie would be dropped on plain-http localhost.
function isSecure({ request, context }: Args): boolean {
  const url = new URL(request.url)
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]'
  return url.protocol === 'https:' || (context.get(servicesContext).config.NODE_ENV === 'production' && !local)
}
