import { expect, test } from 'vitest'
import { addressGroup } from '#server/http/connection-cap.ts'

test('IPv4 addresses count one by one, also when mapped into IPv6', () => {
  expect(addressGroup('203.0.113.7')).toBe('203.0.113.7')
  expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7')
  expect(addressGroup('127.0.0.1')).toBe('127.0.0.1')
  expect(addressGroup(undefined)).toBe('unknown')
})

test('IPv6 addresses count by /64, however they are written', () => {
  const group = '2001:db8:aa:1::/64'
  expect(addressGroup('2001:db8:aa:1::1')).toBe(group)
  expect(addressGroup('2001:db8:aa:1:ffff:ffff:ffff:fffe')).toBe(group)
  expect(addressGroup('2001:0db8:00aa:0001:0:0:0:9')).toBe(group)
  expect(addressGroup('2001:db8:aa:2::1')).not.toBe(group)
  expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64')
  expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
  expect(addressGroup('::1')).toBe('0:0:0:0::/64')
  expect(addressGroup('::')).toBe('0:0:0:0::/64')
  expect(addressGroup('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64')
})
