// The two links an email carries. Confirmation: 256 random bits, of which only the SHA-256 is stored,
// good once and for a day. Unsubscribe: nothing stored; the series and address ids signed with a key
// derived (HKDF) from the memory key ring, signed by its first key and checked against every key, so a
// digest's link keeps working after a key rotation (rotations keep the old keys after the new one).
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'
import type { KeyRing } from '#server/crypto/key-ring.ts'
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

function unsubscribeKey(key: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'sextant email unsubscribe', 32))
}

function signature(key: Buffer, seriesId: string, addressId: string): Buffer {
  return createHmac('sha256', unsubscribeKey(key)).update(`${seriesId}\n${addressId}`).digest()
}

/** Unsubscribe links, signed and checked with keys derived from the ring's (built where the ring is held). */
export function createUnsubscribeTokens(ring: KeyRing) {
  return {
    /** `<seriesId>.<addressId>.<signature>`: stops that series' digests to that address. */
    make(seriesId: string, addressId: string): string {
      const key = ring.keys.get(ring.primary) as Buffer
      return `${seriesId}.${addressId}.${signature(key, seriesId, addressId).toString('base64url')}`
    },
    /** The series and address a genuine unsubscribe token names; undefined for anything else. */
    read(token: string): { seriesId: string; addressId: string } | undefined {
      const [seriesId, addressId, signed, ...rest] = token.split('.')
      if (rest.length > 0 || !seriesId || !addressId || !signed) return undefined
      if (!UUID.test(seriesId) || !UUID.test(addressId)) return undefined
      const given = Buffer.from(signed, 'base64url')
      for (const key of ring.keys.values()) {
        const expected = signature(key, seriesId, addressId)
        if (given.length === expected.length && timingSafeEqual(given, expected)) return { seriesId, addressId }
      }
      return undefined
    },
  }
}

export type UnsubscribeTokens = ReturnType<typeof createUnsubscribeTokens>
