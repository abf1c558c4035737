// A device that logged in to an account before, known by a cookie only this server can sign (OWASP's
// "device cookies"): its failed logins count against the device, not against the account or the
// address, so a stranger's guesses for an email, or a crowd behind one NAT, cannot lock its owner out,
// while a stranger without the cookie is throttled as before. The cookie names a random device id and
// the day it was issued, signed with a key derived from the memory key ring's primary key; it says
// nothing of the account (the signature covers the email's hash, which the cookie does not carry).
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto'
import { DEVICE_DAYS } from '#server/accounts/contract.ts'

const DAY_MS = 86_400_000
const TOKEN = /^([A-Za-z0-9_-]{22})\.(\d{1,6})\.([A-Za-z0-9_-]{43})$/

export type LoginDevices = {
  /** A cookie value for a device of the account `subject` (an existing device id, or a new one). */
  issue: (subject: string, deviceId?: string) => string
  /** The device id a cookie value names, when it is ours, for this account, and not too old. */
  read: (subject: string, token: string | undefined) => string | undefined
}

export function createLoginDevices(secret: Buffer, now: () => number = Date.now): LoginDevices {
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'sextant login device', 32))
  const sign = (subject: string, deviceId: string, day: number) =>
    createHmac('sha256', key).update(`${subject}\n${deviceId}\n${day}`).digest('base64url')
  const today = () => Math.floor(now() / DAY_MS)
  return {
    issue(subject, deviceId = randomBytes(16).toString('base64url')) {
      const day = today()
      return `${deviceId}.${day}.${sign(subject, deviceId, day)}`
    },
    read(subject, token) {
      const match = token ? TOKEN.exec(token) : null
      if (!match) return undefined
      const [, deviceId, issued, signature] = match as unknown as [string, string, string, string]
      const day = Number(issued)
      if (today() - day > DEVICE_DAYS || day > today() + 1) return undefined
      const expected = Buffer.from(sign(subject, deviceId, day))
      const given = Buffer.from(signature)
      return given.length === expected.length && timingSafeEqual(given, expected) ? deviceId : undefined
    },
  }
}
