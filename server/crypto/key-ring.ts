// AES-256-GCM sealing for memory and reports. A key ring from MEMORY_ENCRYPTION_KEYS
// ("kid:base64key,..."): the first key seals, every key opens, so keys rotate without losing memory.
// Each seal uses a fresh 96-bit IV; the key id travels with the ciphertext; the associated data
// binds a blob to its row, so a blob copied to another topic or account does not open.
import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Logger } from '#server/logger.ts'

export type KeyRing = { primary: string; keys: ReadonlyMap<string, Buffer> }
export type Sealed = { keyId: string; ciphertext: Buffer }

const IV_BYTES = 12
const TAG_BYTES = 16
const KEY_ID = /^[A-Za-z0-9._-]{1,32}$/

export class KeyRingError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'KeyRingError'
  }
}

/** Parses "kid:base64key,kid2:base64key2"; every key must be 32 bytes. */
export function parseKeyRing(spec: string): KeyRing {
  const keys = new Map<string, Buffer>()
  for (const entry of spec
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const separator = entry.indexOf(':')
    const kid = entry.slice(0, separator)
    const key = Buffer.from(entry.slice(separator + 1), 'base64')
    if (separator < 1 || !KEY_ID.test(kid))
      throw new KeyRingError(`"${kid || entry}" is not a valid key id (letters, digits, . _ -)`)
    if (key.length !== 32) throw new KeyRingError(`key "${kid}" must be 32 bytes of base64 (got ${key.length})`)
    if (keys.has(kid)) throw new KeyRingError(`key id "${kid}" appears twice`)
    keys.set(kid, key)
  }
  const primary = keys.keys().next().value
  if (primary === undefined) throw new KeyRingError('no keys given')
  return { primary, keys }
}

export function generateKeySpec(kid = `k${new Date().toISOString().slice(0, 10).replaceAll('-', '')}`): string {
  return `${kid}:${randomBytes(32).toString('base64')}`
}

/** The settings the key ring is loaded from (server/config.ts, which validates them with parseKeyRing). */
export type KeyRingSettings = {
  MEMORY_ENCRYPTION_KEYS?: string
  NODE_ENV: string
  embeddedDatabase: boolean
  DATA_DIR: string
}

/**
 * The key ring for this process: MEMORY_ENCRYPTION_KEYS when set. Otherwise, for the embedded
 * default and for development, a key generated once into DATA_DIR/memory-key (mode 600). A
 * production deployment on its own database must bring its own keys.
 */
export function loadKeyRing(config: KeyRingSettings, log: Logger): KeyRing {
  if (config.MEMORY_ENCRYPTION_KEYS) return parseKeyRing(config.MEMORY_ENCRYPTION_KEYS)
  if (config.NODE_ENV === 'production' && !config.embeddedDatabase) {
    throw new KeyRingError(
      'MEMORY_ENCRYPTION_KEYS is required in production with DATABASE_URL. Generate one with: npm run cli -- memory keygen',
    )
  }
  const file = path.join(config.DATA_DIR, 'memory-key')
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.DATA_DIR, { recursive: true })
    fs.writeFileSync(file, `${generateKeySpec()}\n`, { mode: 0o600, flag: 'wx' })
    log.warn({ file }, 'generated a memory encryption key; back it up: memory sealed with it cannot be read without it')
  }
  return parseKeyRing(fs.readFileSync(file, 'utf8').trim())
}

// A cipher made from raw key bytes imports them into a new KeyObject every time; made once per key,
// every seal and open after the first skips that (it showed in a run's profile).
const keyObjects = new WeakMap<Buffer, KeyObject>()
function keyObject(key: Buffer): KeyObject {
  let object = keyObjects.get(key)
  if (!object) {
    object = createSecretKey(key)
    keyObjects.set(key, object)
  }
  return object
}

export function seal(ring: KeyRing, plaintext: Buffer, associatedData: string): Sealed {
  const key = keyObject(ring.keys.get(ring.primary) as Buffer)
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(associatedData))
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return { keyId: ring.primary, ciphertext: Buffer.concat([iv, cipher.getAuthTag(), body]) }
}

export class UnreadableError extends Error {
  constructor(reason: string) {
    super(`sealed data cannot be opened: ${reason}`)
    this.name = 'UnreadableError'
  }
}

/** Opens what seal() made; throws UnreadableError for an unknown key, tampering or the wrong row. */
export function open(ring: KeyRing, sealed: Sealed, associatedData: string): Buffer {
  const key = ring.keys.get(sealed.keyId)
  if (!key) throw new UnreadableError(`key "${sealed.keyId}" is not in MEMORY_ENCRYPTION_KEYS`)
  if (sealed.ciphertext.length < IV_BYTES + TAG_BYTES) throw new UnreadableError('too short')
  const decipher = createDecipheriv('aes-256-gcm', keyObject(key), sealed.ciphertext.subarray(0, IV_BYTES))
  decipher.setAAD(Buffer.from(associatedData))
  decipher.setAuthTag(sealed.ciphertext.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
  try {
    return Buffer.concat([decipher.update(sealed.ciphertext.subarray(IV_BYTES + TAG_BYTES)), decipher.final()])
  } catch {
    throw new UnreadableError('authentication failed (wrong key, tampered, or moved from another row)')
  }
}

export function sealJson(ring: KeyRing, value: unknown, associatedData: string): Sealed {
  return seal(ring, Buffer.from(JSON.stringify(value)), associatedData)
}

export function openJson(ring: KeyRing, sealed: Sealed, associatedData: string): unknown {
  return JSON.parse(open(ring, sealed, associatedData).toString('utf8'))
}
