// The two links an email carries. Confirmation: 256 random bits, of which only the SHA-256 is stored,
// good once and for a day. Unsubscribe: nothing stored; the series and address ids signed with keys
// derived (HKDF) from the memory key ring's (UNSUBSCRIBE_KEYS): signed with the first key's, checked
// against every key's, so a digest's link keeps working after a key rotation.
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { DerivedKeys } from '#server/crypto/derived-keys.ts'
import { randomToken, sha256 } from '#server/crypto/secrets.ts'
import { UUID } from '#server/text/uuid.ts'

export const CONFIRMATION_TTL_MS = 24 * 3600_000

export function newConfirmationToken(now: Date): { token: string; hash: string; expiresAt: Date } {
  const token = randomToken()
  return { token, hash: hashConfirmationToken(token), expiresAt: new Date(now.getTime() + CONFIRMATION_TTL_MS) }
}

export function hashConfirmationToken(token: string): string {
  return sha256(`sextant email confirmation\n${token}`)
}

/** The purpose the unsubscribe links' keys are derived for (deriveKeys, server/crypto/derived-keys.ts). */
export const UNSUBSCRIBE_KEYS = 'sextant email unsubscribe'

function signature(key: Buffer, seriesId: string, addressId: string): Buffer {
  return createHmac('sha256', key).update(`${seriesId}\n${addressId}`).digest()
}

/** Unsubscribe links, signed and checked with the keys derived for UNSUBSCRIBE_KEYS. */
export function createUnsubscribeTokens(keys: DerivedKeys) {
  return {
    /** `<seriesId>.<addressId>.<signature>`: stops that series' digests to that address. */
    make(seriesId: string, addressId: string): string {
      return `${seriesId}.${addressId}.${signature(keys.signing, seriesId, addressId).toString('base64url')}`
    },
    /** The series and address a genuine unsubscribe token names; undefined for anything else. */
    read(token: string): { seriesId: string; addressId: string } | undefined {
      const [seriesId, addressId, signed, ...rest] = token.split('.')
      if (rest.length > 0 || !seriesId || !addressId || !signed) return undefined
      if (!UUID.test(seriesId) || !UUID.test(addressId)) return undefined
      const given = Buffer.from(signed, 'base64url')
      for (const key of keys.checking) {
        const expected = signature(key, seriesId, addressId)
        if (given.length === expected.length && timingSafeEqual(given, expected)) return { seriesId, addressId }
      }
      return undefined
    },
  }
}

export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>
