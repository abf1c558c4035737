import { randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import { parseKeyRing } from '#server/memory/crypto.ts'
import { readUnsubscribeToken, unsubscribeToken } from '#server/notify/email/tokens.ts'

const key = (byte: number) => Buffer.alloc(32, byte).toString('base64')
const oldRing = parseKeyRing(`old:${key(1)}`)
const rotated = parseKeyRing(`new:${key(2)},old:${key(1)}`)

test('an unsubscribe token names its series and address, and survives a key rotation', () => {
  const seriesId = randomUUID()
  const addressId = randomUUID()
  const token = unsubscribeToken(oldRing, seriesId, addressId)
  expect(readUnsubscribeToken(oldRing, token)).toEqual({ seriesId, addressId })
  expect(readUnsubscribeToken(rotated, token)).toEqual({ seriesId, addressId })
  expect(readUnsubscribeToken(parseKeyRing(`other:${key(3)}`), token)).toBeUndefined()
})

test('a token with another id, a changed signature or junk is refused', () => {
  const seriesId = randomUUID()
  const addressId = randomUUID()
  const token = unsubscribeToken(oldRing, seriesId, addressId)
  const [, , signed] = token.split('.')
  expect(readUnsubscribeToken(oldRing, `${randomUUID()}.${addressId}.${signed}`)).toBeUndefined()
  expect(readUnsubscribeToken(oldRing, `${seriesId}.${addressId}.${signed?.slice(1)}`)).toBeUndefined()
  for (const junk of ['', '...', 'a.b.c', `${token}.x`, `${seriesId}.${addressId}`]) {
    expect(readUnsubscribeToken(oldRing, junk)).toBeUndefined()
  }
})
