// A sealed column as a codec (issue 43, item 3; decision 064): built once from the key ring, a zod
// schema and the associated data that binds a value to its row, it seals a value as JSON and opens
// it back parsed by the schema. A repository holds its columns' codecs and returns opened, validated
// values, so the ring and `JSON.parse(...) as T` stay out of the code that uses them. The bytes are
// sealJson's (server/crypto/key-ring.ts): columns sealed before the codecs open with them.
import type { z } from 'zod'
import { type KeyRing, open, openJson, type Sealed, seal, sealJson, UnreadableError } from '#server/crypto/key-ring.ts'

/** What a codec's open throws for a value that does not open, or is not the shape this version stores. */
export { UnreadableError }

/** A sealed column pair as a row holds it (`x_key_id`, `x`): both null when nothing is sealed. */
export type SealedPair = { keyId: string | null; ciphertext: Buffer | null }

export type SealedColumn<T, K extends readonly unknown[]> = {
  /** Whether the ring holds the key a value sealed with `keyId` needs (it may still not open). */
  holds: (keyId: string) => boolean
  /** The value sealed for the row that `key` names. */
  seal: (value: T, ...key: K) => Sealed
  /**
   * The value sealed for the row `key` names, parsed by the column's schema; undefined for an empty
   * pair (never for a column that cannot be empty). Throws UnreadableError when it does not open
   * (another key, another row, tampered) or is not the shape this version stores.
   */
  open: {
    (pair: Sealed, ...key: K): T
    (pair: SealedPair, ...key: K): T | undefined
  }
}

/** The codec's open, for a pair that may be empty: a pair that cannot be empty always gives a value. */
function opener<T, K extends readonly unknown[]>(open: (pair: Sealed, ...key: K) => T): SealedColumn<T, K>['open'] {
  return ((pair: SealedPair, ...key: K) =>
    pair.keyId === null || pair.ciphertext === null
      ? undefined
      : open({ keyId: pair.keyId, ciphertext: pair.ciphertext }, ...key)) as SealedColumn<T, K>['open']
}

export function sealedColumn<S extends z.ZodType, K extends readonly unknown[]>(
  ring: KeyRing,
  column: {
    /** `table.column`, for the error a value of another shape throws. */
    name: string
    schema: S
    /** What binds a value to its row: sealed for one row, it does not open for another. */
    associatedData: (...key: K) => string
  },
): SealedColumn<z.output<S>, K> {
  const { schema, associatedData } = column
  return {
    holds: (keyId) => ring.keys.has(keyId),
    seal: (value, ...key) => sealJson(ring, value, associatedData(...key)),
    open: opener((sealed, ...key) => {
      const parsed = schema.safeParse(openJson(ring, sealed, associatedData(...key)))
      if (!parsed.success) throw new UnreadableError(`${column.name} is not the shape this version stores`)
      return parsed.data
    }),
  }
}

/**
 * A column that seals text as its UTF-8 bytes, not as JSON: a secret or a token as it was always
 * stored (a Slack bot token, a webhook signing secret). Opens and seals as sealedColumn does.
 */
export function sealedText<K extends readonly unknown[]>(
  ring: KeyRing,
  column: { name: string; associatedData: (...key: K) => string },
): SealedColumn<string, K> {
  const { associatedData } = column
  return {
    holds: (keyId) => ring.keys.has(keyId),
    seal: (value, ...key) => seal(ring, Buffer.from(value, 'utf8'), associatedData(...key)),
    open: opener((sealed, ...key) => open(ring, sealed, associatedData(...key)).toString('utf8')),
  }
}
