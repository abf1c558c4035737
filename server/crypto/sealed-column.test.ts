import { expect, test } from 'vitest'
import { z } from 'zod'
import { generateKeySpec, parseKeyRing, seal, sealJson, UnreadableError } from '#server/crypto/key-ring.ts'
import { sealedColumn, sealedText } from '#server/crypto/sealed-column.ts'

const ring = parseKeyRing(generateKeySpec('k1'))
const notes = sealedColumn(ring, {
  name: 'notes.body',
  schema: z.object({ text: z.string(), pages: z.number().int() }),
  associatedData: (id: string) => `note:${id}`,
})

test('a sealed column opens what it sealed for the same row, parsed by its schema', () => {
  const sealed = notes.seal({ text: 'kept', pages: 3 }, 'n1')
  expect(sealed.ciphertext.includes(Buffer.from('kept'))).toBe(false)
  expect(notes.open(sealed, 'n1')).toEqual({ text: 'kept', pages: 3 })
  expect(notes.open({ keyId: null, ciphertext: null }, 'n1')).toBeUndefined()
})

test('a column says whether its ring holds the key a value was sealed with', () => {
  const sealed = notes.seal({ text: 'kept', pages: 3 }, 'n1')
  expect(notes.holds(sealed.keyId)).toBe(true)
  const rotated = sealedColumn(parseKeyRing(generateKeySpec('k2')), {
    name: 'notes.body',
    schema: z.object({ text: z.string() }),
    associatedData: (id: string) => `note:${id}`,
  })
  expect(rotated.holds(sealed.keyId)).toBe(false)
  expect(sealedText(ring, { name: 'notes.token', associatedData: (id: string) => id }).holds(sealed.keyId)).toBe(true)
})

test('a value sealed for one row does not open for another', () => {
  const sealed = notes.seal({ text: 'kept', pages: 3 }, 'n1')
  expect(() => notes.open(sealed, 'n2')).toThrow(UnreadableError)
})

test('a value of another shape is refused, naming the column, not handed on as the type', () => {
  const stored = sealJson(ring, { text: 'kept', pages: 'three' }, 'note:n1')
  expect(() => notes.open(stored, 'n1')).toThrow(/notes\.body is not the shape this version stores/)
})

test('what sealJson stored before the codecs opens with them: the bytes are the same format', () => {
  const stored = sealJson(ring, { text: 'old row', pages: 1 }, 'note:n9')
  expect(notes.open(stored, 'n9')).toEqual({ text: 'old row', pages: 1 })
})

test('a text column seals a secret as its bytes, as secrets were always stored, bound to its row', () => {
  const tokens = sealedText(ring, { name: 'workspaces.token', associatedData: (team: string) => `token:${team}` })
  const stored = seal(ring, Buffer.from('xoxb-old'), 'token:T1')
  expect(tokens.open(stored, 'T1')).toBe('xoxb-old')
  const sealed = tokens.seal('xoxb-new', 'T2')
  expect(tokens.open(sealed, 'T2')).toBe('xoxb-new')
  expect(() => tokens.open(sealed, 'T1')).toThrow(UnreadableError)
  expect(tokens.open({ keyId: null, ciphertext: null }, 'T1')).toBeUndefined()
})
