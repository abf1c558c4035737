import { expect, test } from 'vitest'
import {
  generateKeySpec,
  open,
  openJson,
  parseKeyRing,
  seal,
  sealJson,
  UnreadableError,
} from '#server/crypto/key-ring.ts'

test('sealed data opens with the same ring and row, and never repeats its ciphertext', () => {
  const ring = parseKeyRing(generateKeySpec('k1'))
  const a = sealJson(ring, { fact: 'cobalt-free cathodes' }, 'topic:1')
  const b = sealJson(ring, { fact: 'cobalt-free cathodes' }, 'topic:1')
  expect(a.keyId).toBe('k1')
  expect(a.ciphertext.equals(b.ciphertext)).toBe(false) // fresh IV each time
  expect(a.ciphertext.toString('latin1')).not.toContain('cobalt')
  expect(openJson(ring, a, 'topic:1')).toEqual({ fact: 'cobalt-free cathodes' })
})

test('rotation: a new first key seals, the old one still opens what it sealed', () => {
  const k1 = generateKeySpec('k1')
  const before = sealJson(parseKeyRing(k1), 'old memory', 'topic:1')
  const rotated = parseKeyRing(`${generateKeySpec('k2')},${k1}`)
  const after = sealJson(rotated, 'new memory', 'topic:1')
  expect(after.keyId).toBe('k2')
  expect(openJson(rotated, before, 'topic:1')).toBe('old memory')
  expect(openJson(rotated, after, 'topic:1')).toBe('new memory')
})

test('a missing key, a flipped bit, or another row is unreadable, never garbage', () => {
  const ring = parseKeyRing(generateKeySpec('k1'))
  const sealed = seal(ring, Buffer.from('secret'), 'topic:1')
  expect(() => open(parseKeyRing(generateKeySpec('k9')), sealed, 'topic:1')).toThrowError(UnreadableError)
  const tampered = Buffer.from(sealed.ciphertext)
  tampered[tampered.length - 1] = (tampered[tampered.length - 1] as number) ^ 1
  expect(() => open(ring, { ...sealed, ciphertext: tampered }, 'topic:1')).toThrowError(UnreadableError)
  expect(() => open(ring, sealed, 'topic:2')).toThrowError(UnreadableError)
  expect(() => open(ring, { ...sealed, ciphertext: Buffer.alloc(4) }, 'topic:1')).toThrowError(UnreadableError)
})

test('key ring specs are checked', () => {
  expect(() => parseKeyRing('')).toThrowError(/no keys/)
  expect(() => parseKeyRing('k1:AAAA')).toThrowError(/32 bytes/)
  expect(() => parseKeyRing(`bad id:${Buffer.alloc(32).toString('base64')}`)).toThrowError(/key id/)
  const key = Buffer.alloc(32).toString('base64')
  expect(() => parseKeyRing(`k1:${key},k1:${key}`)).toThrowError(/twice/)
  expect(parseKeyRing(`a:${key}, b:${key}`).primary).toBe('a')
})
