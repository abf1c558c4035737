// Signing secrets in the Standard Webhooks format: `whsec_` and 32 random bytes in base64, which any
// Standard Webhooks library (and svix) takes as is. Sealed with the memory key ring, bound to their
// endpoint (or account): a sealed secret copied to another row does not open.
import { randomBytes } from 'node:crypto'
import { type KeyRing, open, seal } from '#server/memory/crypto.ts'

export type SealedSecret = { keyId: string; ciphertext: Buffer }

export const endpointSecretData = (endpointId: string) => `webhook_endpoint_secret:${endpointId}`
export const accountSecretData = (accountId: string) => `webhook_account_secret:${accountId}`

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

export function sealSecret(ring: KeyRing, secret: string, data: string): SealedSecret {
  return seal(ring, Buffer.from(secret, 'utf8'), data)
}

export function openSecret(ring: KeyRing, sealed: SealedSecret, data: string): string {
  return open(ring, sealed, data).toString('utf8')
}
