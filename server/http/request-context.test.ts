import { expect, test } from 'vitest'
import { nonceSource } from '#server/http/request-context.ts'

test('CSP nonces are 128 bits each, and no two alike across several pooled draws', () => {
  const nonce = nonceSource()
  const seen = new Set<string>()
  // Three draws' worth and more: a slice handed out twice, or past a draw's end, shows here.
  for (let i = 0; i < 1000; i++) {
    const value = nonce()
    expect(Buffer.from(value, 'base64')).toHaveLength(16)
    seen.add(value)
  }
  expect(seen.size).toBe(1000)
  // Two sources draw their own bytes.
  expect(nonceSource()()).not.toBe(nonceSource()())
})
