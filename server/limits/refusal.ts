// A refusal in words, the same on every surface (a 429 problem, an MCP error, a page, a chat reply):
// which limit, and how long to wait.
import type { LimitDecision } from '#server/limits/limiter.ts'

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
