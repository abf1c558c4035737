// The public demo key is one key, but not one account: whoever calls with it acts as the demo
// visitor of their address, an account of kind 'demo' of its own (as each trial browser has one).
// One visitor never sees, pauses or cancels another's runs. The account's id is derived from the
// address, so reading needs no row; the row is written when the visitor's first run starts
// (ensureDemoVisitorAccount, server/accounts/repository/accounts.ts).
import type { DemoVisitor } from '#server/accounts/contract.ts'
import { sha256 } from '#server/crypto/secrets.ts'

/** The visitor account of a client address: the same address always gets the same one. */
export function demoVisitor(clientAddress: string): DemoVisitor {
  const hash = sha256(`sextant demo visitor\n${clientAddress}`).slice(0, 32)
  // A UUID (version 8: application-defined) made of the hash, so it fits accounts.id as it is.
  const hex = `${hash.slice(0, 12)}8${hash.slice(13, 16)}${((Number.parseInt(hash[16] as string, 16) & 0x3) | 0x8).toString(16)}${hash.slice(17)}`
  const accountId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
  return { accountId, email: `demo-${hash}@demo.sextant.local` }
}
