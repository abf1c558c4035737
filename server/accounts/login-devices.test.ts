import { expect, test } from 'vitest'
import { DEVICE_DAYS } from '#server/accounts/contract.ts'
import { createLoginDevices } from '#server/accounts/login-devices.ts'

test('a device cookie is read back for its account only, until it is too old, and not when altered', () => {
  let now = Date.UTC(2026, 10, 29)
  const devices = createLoginDevices(Buffer.alloc(32, 7), () => now)
  const token = devices.issue('account-a')
  const id = devices.read('account-a', token)
  expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/)
  expect(devices.read('account-b', token)).toBeUndefined()
  // Renewed for the same device, it names the same id.
  expect(devices.read('account-a', devices.issue('account-a', id))).toBe(id)
  // Another server key, an altered id, day or signature: none is a device.
  expect(createLoginDevices(Buffer.alloc(32, 8), () => now).read('account-a', token)).toBeUndefined()
  const [device, day, signature] = token.split('.') as [string, string, string]
  for (const altered of [
    `${device.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}.${day}.${signature}`,
    `${device}.${Number(day) + 1}.${signature}`,
    `${device}.${day}.${signature.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}`,
    '',
    'garbage',
  ]) {
    expect(devices.read('account-a', altered)).toBeUndefined()
  }
  expect(devices.read('account-a', undefined)).toBeUndefined()
  now += DEVICE_DAYS * 86_400_000
  expect(devices.read('account-a', token)).toBe(id)
  now += 86_400_000
  expect(devices.read('account-a', token)).toBeUndefined()
})
