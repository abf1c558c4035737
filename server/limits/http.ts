// Rate limits over HTTP: the RateLimit-Policy and RateLimit fields of
// draft-ietf-httpapi-ratelimit-headers (structured fields), and the 429 problem.
import type { Response } from 'express'
import { sendProblem } from '#server/http/problem.ts'
import type { LimitDecision } from '#server/limits/limiter.ts'

/** Appends, so a request under several policies lists each (a structured-field list). */
export function setRateLimitHeaders(res: Response, decision: LimitDecision): void {
  const { policy } = decision
  const name = structuredString(policy.name)
  res.append('RateLimit-Policy', `${name};q=${policy.limit};w=${policy.windowSeconds}`)
  res.append('RateLimit', `${name};r=${decision.remaining};t=${decision.resetSeconds}`)
}

/** `detail` replaces the policy's own sentence and the wait (see limitRefusalMessage). */
export function sendRateLimited(res: Response, decision: LimitDecision, detail?: string): void {
  const { policy } = decision
  const retryAfterSeconds = Math.max(1, decision.retryAfterSeconds)
  setRateLimitHeaders(res, decision)
  res.set('Retry-After', String(retryAfterSeconds))
  sendProblem(res, {
    status: 429,
    title: 'Too Many Requests',
    type: 'https://sextant.dev/problems/rate-limited',
    detail: detail ?? limitRefusalMessage(decision),
    limit: policy.name,
    quota: policy.limit,
    windowSeconds: policy.windowSeconds,
    retryAfterSeconds,
    resetsAt: new Date(decision.checkedAt.getTime() + retryAfterSeconds * 1000).toISOString(),
  })
}

/**
 * "You can start 5 research runs per hour from one address. Try again in 12 minutes." With
 * `operator` (the caller runs this server), also the setting that changes the limit.
 */
export function limitRefusalMessage(decision: LimitDecision, options: { operator?: boolean } = {}): string {
  const { policy } = decision
  const wait = `${policy.description} Try again in ${describeWait(Math.max(1, decision.retryAfterSeconds))}.`
  return options.operator && policy.setting ? `${wait} ${policy.setting} sets this limit on this server.` : wait
}

/** "45 seconds", "12 minutes", "6 hours": rounded up, so the client is never told to come back too early. */
export function describeWait(seconds: number): string {
  if (seconds < 60) return plural(Math.max(1, Math.ceil(seconds)), 'second')
  if (seconds < 90 * 60) return plural(Math.ceil(seconds / 60), 'minute')
  return plural(Math.ceil(seconds / 3600), 'hour')
}

function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`
}

/** An sf-string (RFC 9651 section 3.3.3): quoted, with backslash and quote escaped. */
function structuredString(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&')}"`
}
