// Rate limits over HTTP: the RateLimit-Policy and RateLimit fields of
// draft-ietf-httpapi-ratelimit-headers (structured fields), and the 429 problem.
import type { Response } from 'express'
import { sendProblem } from '#server/http/problem.ts'
import type { LimitDecision } from '#server/limits/limiter.ts'
import { limitRefusalMessage } from '#server/limits/refusal.ts'

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

/** An sf-string (RFC 9651 section 3.3.3): quoted, with backslash and quote escaped. */
function structuredString(value: string): string {
  return `"${value.replace(/[\\"]/g, '\\$&')}"`
}
