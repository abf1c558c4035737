import { expect, test } from 'vitest'
import { generateApiKey, parseApiKey } from '#server/accounts/api-keys.ts'

test('generated keys have the documented shape and parse back into prefix and secret', () => {
  const keys = new Set(Array.from({ length: 50 }, generateApiKey))
  expect(keys.size).toBe(50)
  for (const key of keys) {
    expect(key).toMatch(/^sx_[a-z0-9]{8}_[A-Za-z0-9]{32}$/)
    const parsed = parseApiKey(key)
    expect(`sx_${parsed?.prefix}_${parsed?.secret}`).toBe(key)
  }
})

test('anything else does not parse', () => {
  for (const bad of [
    '',
    'sx_',
    'sx_ABCDEFGH_0123456789abcdef0123456789abcdef',
    'sx_abcdefgh_short',
    'xx_abcdefgh_0123456789abcdef0123456789abcdef',
  ]) {
    expect(parseApiKey(bad)).toBeUndefined()
  }
})
