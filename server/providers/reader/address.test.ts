import { expect, test } from 'vitest'
import { addressRange, isPublicAddress } from '#server/providers/reader/address.ts'

const refused: Array<[string, string]> = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.255', 'carrierGradeNat'],
  ['169.254.169.254', 'linkLocal'],
  ['169.254.0.1', 'linkLocal'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.10', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::', 'unspecified'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456:789a::1', 'uniqueLocal'],
  ['fe80::1', 'linkLocal'],
  ['fe80::1%eth0', 'linkLocal'],
  ['ff02::1', 'multicast'],
  ['fec0::1', 'deprecatedSiteLocal'],
  ['::ffff:127.0.0.1', 'ipv4Mapped loopback'],
  ['::ffff:7f00:1', 'ipv4Mapped loopback'],
  ['[::ffff:127.0.0.1]', 'ipv4Mapped loopback'],
  ['::ffff:10.0.0.1', 'ipv4Mapped private'],
  ['::ffff:169.254.169.254', 'ipv4Mapped linkLocal'],
  ['::ffff:192.168.0.1', 'ipv4Mapped private'],
  ['::ffff:0.0.0.0', 'ipv4Mapped unspecified'],
  ['64:ff9b::7f00:1', 'nat64 loopback'],
  ['64:ff9b::a9fe:a9fe', 'nat64 linkLocal'],
  ['64:ff9b::10.1.2.3', 'nat64 private'],
  ['64:ff9b:1::a00:1', 'rfc6052'],
  // ipaddr.js reads the deprecated IPv4-compatible dotted form as mapped; refused either way.
  ['::127.0.0.1', 'ipv4Mapped loopback'],
  // The hex IPv4-compatible forms and the rest of ::/8 are not global unicast.
  ['::7f00:1', 'reserved'],
  ['::a9fe:a9fe', 'reserved'],
  ['::ffff:0:7f00:1', 'rfc6145'],
  ['2002:7f00:1::1', '6to4'],
  ['2001:0:4136:e378::1', 'teredo'],
  ['2001:db8::1', 'reserved'],
  ['localhost', 'invalid'],
  ['', 'invalid'],
  ['127.1', 'loopback'],
]

test.each(refused)('%s is refused (%s)', (address, range) => {
  expect(addressRange(address)).toBe(range)
  expect(isPublicAddress(address)).toBe(false)
})

const allowed = [
  '93.184.215.14',
  '8.8.8.8',
  '1.1.1.1',
  '172.15.255.255',
  '172.32.0.1',
  '100.63.255.255',
  '100.128.0.1',
  '169.253.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:82b::200e',
  '[2606:4700:4700::1111]',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
]

test.each(allowed)('%s is public', (address) => {
  expect(addressRange(address)).toBe('public')
  expect(isPublicAddress(address)).toBe(true)
})
