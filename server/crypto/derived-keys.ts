// Keys for what is signed rather than sealed (an email's unsubscribe link), derived from the memory
// key ring's, so that the code that signs never holds the ring.
import { hkdfSync } from 'node:crypto'
import type { KeyRing } from '#server/crypto/key-ring.ts'

/**
 * Keys derived (HKDF-SHA256, no salt) from the ring's for one purpose, for what is signed rather
 * than sealed: `signing` from the first key, `checking` from every key, so what was signed before a
 * rotation still checks (rotations keep the old keys after the new one).
 */
export type DerivedKeys = { signing: Buffer; checking: readonly Buffer[] }

export function deriveKeys(ring: KeyRing, purpose: string): DerivedKeys {
  const derive = (key: Buffer) => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), purpose, 32))
  return { signing: derive(ring.keys.get(ring.primary) as Buffer), checking: [...ring.keys.values()].map(derive) }
}
