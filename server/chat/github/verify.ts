// GitHub's webhook signature: X-Hub-Signature-256 is "sha256=" + HMAC-SHA256 of the raw body with the
// webhook secret. GitHub sends no timestamp; a replay is caught by X-GitHub-Delivery deduplication.
import { constantTimeEqual, hmacSha256Hex } from '#server/chat/signature.ts'
import type { SignatureCheck } from '#server/chat/slack/verify.ts'

export function verifyGithubSignature(input: {
  secret: string
  body: Buffer
  signature: string | undefined
}): SignatureCheck {
  if (!input.signature) return { ok: false, reason: 'X-Hub-Signature-256 is required.' }
  const expected = signGithubPayload(input.secret, input.body)
  if (!constantTimeEqual(expected, input.signature)) {
    return { ok: false, reason: 'The GitHub signature does not match.' }
  }
  return { ok: true }
}

export function signGithubPayload(secret: string, body: Buffer | string): string {
  return `sha256=${hmacSha256Hex(secret, body)}`
}
