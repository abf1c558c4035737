// How posting to Slack or GitHub failed, as the deliver job needs to know it: try again later (and
// when, if the platform said), or never (a revoked token, a deleted channel: retrying cannot help).
export class DeliveryError extends Error {
  readonly retry: 'later' | 'never'
  readonly retryAfterSeconds: number | undefined

  constructor(message: string, retry: 'later' | 'never', retryAfterSeconds?: number) {
    super(message)
    this.name = 'DeliveryError'
    this.retry = retry
    this.retryAfterSeconds = retryAfterSeconds
  }
}

/** Retry-After as seconds (RFC 9110 allows a number or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined
  if (/^\d+$/.test(header.trim())) return Number(header.trim())
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}

/** A network failure or timeout: the platform may be fine in a minute. */
export function unreachable(platform: string, error: unknown): DeliveryError {
  const reason = error instanceof Error ? error.message : String(error)
  return new DeliveryError(`${platform} did not answer: ${reason}`, 'later')
}
