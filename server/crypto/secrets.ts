// Hashing for everything secret we store: passwords and API key secrets with argon2id (slow on
// purpose), session tokens with SHA-256 (they are 256 random bits; a fast hash is enough).

import { hash as digest, randomBytes, randomInt } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane.
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 }

export function hashSecret(secret: string): Promise<string> {
  return hash(secret, ARGON2)
}

export async function verifySecret(hashed: string, secret: string): Promise<boolean> {
  try {
    return await verify(hashed, secret)
  } catch {
    return false // a malformed stored hash verifies nothing
  }
}

export function sha256(value: string): string {
  // The one-shot digest: no Hash object per call (every API request hashes its key for the cache).
  return digest('sha256', value, 'hex')
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** A uniformly random string over `alphabet` (rejection-free: randomInt is unbiased). */
export function randomString(length: number, alphabet = ALPHANUMERIC): string {
  let out = ''
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)]
  return out
}

export function randomToken(): string {
  return randomBytes(32).toString('base64url')
}
