import { expect, test } from 'vitest'
import { signGithubPayload, verifyGithubSignature } from '#server/chat/github/verify.ts'

test("GitHub's published test vector verifies", () => {
  // From GitHub's "Validating webhook deliveries".
  const secret = "It's a Secret to Everybody"
  const signature = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17'
  expect(signGithubPayload(secret, 'Hello, World!')).toBe(signature)
  expect(verifyGithubSignature({ secret, body: Buffer.from('Hello, World!'), signature })).toEqual({ ok: true })
})

test('a forged, tampered, unprefixed or missing signature is refused', () => {
  const secret = 'hook secret'
  const body = Buffer.from('{"action":"created"}')
  const good = signGithubPayload(secret, body)
  expect(verifyGithubSignature({ secret, body, signature: good })).toEqual({ ok: true })
  expect(verifyGithubSignature({ secret, body, signature: signGithubPayload('guess', body) }).ok).toBe(false)
  expect(verifyGithubSignature({ secret, body: Buffer.from('{"action":"deleted"}'), signature: good }).ok).toBe(false)
  expect(verifyGithubSignature({ secret, body, signature: good.slice('sha256='.length) }).ok).toBe(false)
  expect(verifyGithubSignature({ secret, body, signature: good.toUpperCase() }).ok).toBe(false)
  expect(verifyGithubSignature({ secret, body, signature: undefined })).toEqual({
    ok: false,
    reason: expect.stringContaining('required'),
  })
})
