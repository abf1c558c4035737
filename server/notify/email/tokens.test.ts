import { randomUUID } from 'node:crypto'
import { expect, test } from 'vitest'
import { parseKeyRing } from '#server/crypto/key-ring.ts'
import { createUnsubscribeTokens } from '#server/notify/email/tokens.ts'

const key = (byte: number) => Buffer.alloc(32, byte).toString('base64')
const oldRing = createUnsubscribeTokens(parseKeyRing(`old:${key(1)}`))
const rotated = createUnsubscribeTokens(parseKeyRing(`new:${key(2)},old:${key(1)}`))

test('an unsubscribe token names its series and address, and survives a key rotation', () => {
  const seriesId = randomUUID()
  const addressId = randomUUID()
  const token = oldRing.make(seriesId, addressId)
  expect(oldRing.read(token)).toEqual({ seriesId, addressId })
  expect(rotated.read(token)).toEqual({ seriesId, addressId })
  expect(createUnsubscribeTokens(parseKeyRing(`other:${key(3)}`)).read(token)).toBeUndefined()
})

test('a token with another id, a changed signature or junk is refused', () => {
  const seriesId = randomUUID()
  const addressId = randomUUID()
  const token = oldRing.make(seriesId, addressId)
  const [, , signed] = token.split('.')
  expect(oldRing.read(`${randomUUID()}.${addressId}.${signed}`)).toBeUndefined()
  expect(oldRing.read(`${seriesId}.${addressId}.${signed?.slice(1)}`)).toBeUndefined()
  for (const junk of ['', '...', 'a.b.c', `${token}.x`, `${seriesId}.${addressId}`]) {
    expect(oldRing.read(junk)).toBeUndefined()
  }
})
