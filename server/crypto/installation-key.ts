// A random secret per installation (the topic index's HMAC key), kept in `settings` sealed with the
// key ring's first key, so it survives rotation: each boot re-seals it with the ring's current first
// key, and what was derived from it never changes.
import { randomBytes } from 'node:crypto'
import type { Db } from '#db/database.ts'
import { type KeyRing, KeyRingError, open, type Sealed, seal, UnreadableError } from '#server/crypto/key-ring.ts'
import { ensureSetting, updateSetting } from '#server/repositories/settings.ts'

type StoredKey = { keyId: string; sealed: string }

function toSealed(stored: StoredKey): Sealed {
  return { keyId: stored.keyId, ciphertext: Buffer.from(stored.sealed, 'base64') }
}

function toStored(sealed: Sealed): StoredKey {
  return { keyId: sealed.keyId, sealed: sealed.ciphertext.toString('base64') }
}

/**
 * The installation's secret named `setting` (32 random bytes): made on first boot, opened on every
 * later one, and re-sealed with the ring's first key when a rotation put another key first.
 * `description` names it in the error a ring that cannot open it gets.
 */
export async function loadInstallationKey(
  db: Db,
  ring: KeyRing,
  setting: string,
  description: string,
): Promise<Buffer> {
  const associatedData = `settings:${setting}`
  // Two processes booting at once both make one; the first stored wins and both read it back.
  const stored = await ensureSetting(db, setting, toStored(seal(ring, randomBytes(32), associatedData)))
  let key: Buffer
  try {
    key = open(ring, toSealed(stored), associatedData)
  } catch (error) {
    if (!(error instanceof UnreadableError)) throw error
    throw new KeyRingError(
      `the ${description} is sealed with key "${stored.keyId}", which MEMORY_ENCRYPTION_KEYS cannot open: ` +
        'put that key back in the ring (a rotation adds the new key first and keeps the old ones after it)',
    )
  }
  if (stored.keyId !== ring.primary) {
    await updateSetting(db, setting, toStored(seal(ring, key, associatedData)))
  }
  return key
}
