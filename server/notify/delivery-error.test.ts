import { expect, test } from 'vitest'
import { retryAfterSeconds } from '#server/notify/delivery-error.ts'

test('Retry-After is read as seconds or as an HTTP date; anything else is unknown', () => {
  const now = Date.parse('2026-11-21T12:00:00Z')
  expect(retryAfterSeconds('30', now)).toBe(30)
  expect(retryAfterSeconds(' 0 ', now)).toBe(0)
  expect(retryAfterSeconds('Sat, 21 Nov 2026 12:00:45 GMT', now)).toBe(45)
  expect(retryAfterSeconds('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0) // already past
  expect(retryAfterSeconds('soon', now)).toBeUndefined()
  expect(retryAfterSeconds(null, now)).toBeUndefined()
})
