// HMAC-SHA256 webhook signatures, compared in constant time: how long a check takes says nothing
// about how much of a forged signature was right.
import { createHmac, timingSafeEqual } from 'node:crypto'

export function hmacSha256Hex(secret: string, payload: Buffer | string): string {
  return createHmac('sha256', secret).update(payload).digest('hex')
}

/** Equal strings, compared without an early exit; different lengths are unequal at once (length is no secret). */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
