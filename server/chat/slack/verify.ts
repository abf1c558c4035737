// Slack's request signing (v0): X-Slack-Signature is "v0=" + HMAC-SHA256 of "v0:<timestamp>:<raw body>"
// with the app's signing secret. A timestamp more than five minutes off, either way, is refused, so a
// captured request cannot be replayed later.
import { constantTimeEqual, hmacSha256Hex } from '#server/chat/signature.ts'

export const SLACK_MAX_SKEW_SECONDS = 5 * 60

export type SignatureCheck = { ok: true } | { ok: false; reason: string }

export function verifySlackSignature(input: {
  secret: string
  body: Buffer
  timestamp: string | undefined
  signature: string | undefined
  now: Date
}): SignatureCheck {
  if (!input.timestamp || !input.signature) {
    return { ok: false, reason: 'X-Slack-Signature and X-Slack-Request-Timestamp are required.' }
  }
  if (!/^\d{1,12}$/.test(input.timestamp)) return { ok: false, reason: 'X-Slack-Request-Timestamp is not a number.' }
  const skew = Math.abs(input.now.getTime() / 1000 - Number(input.timestamp))
  if (skew > SLACK_MAX_SKEW_SECONDS) {
    return { ok: false, reason: 'X-Slack-Request-Timestamp is more than five minutes away from now.' }
  }
  const base = Buffer.concat([Buffer.from(`v0:${input.timestamp}:`), input.body])
  const expected = `v0=${hmacSha256Hex(input.secret, base)}`
  if (!constantTimeEqual(expected, input.signature)) return { ok: false, reason: 'The Slack signature does not match.' }
  return { ok: true }
}

/** Signs a request the way Slack does: for tests and for people checking their setup. */
export function signSlackRequest(secret: string, timestamp: number, body: string): string {
  return `v0=${hmacSha256Hex(secret, `v0:${timestamp}:${body}`)}`
}
