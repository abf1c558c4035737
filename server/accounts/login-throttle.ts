// Throttles password guessing: failed logins count per client address and per account (the email
// asked for, known or not, so the throttle says nothing about which emails exist). Checked before
// the password is, so a refused guess costs no argon2; a login that succeeds gives its count back.
// A few password checks at once per address, in this process: a burst of concurrent guesses is
// refused at once, neither queueing argon2 work nor crowding the limit store until it times out.
// A device that logged in to the account before (login-devices.ts) counts its own failures instead:
// nobody else's guesses can lock the owner out (issue 41, item 5).
import type { LoginDevices } from '#server/accounts/login-devices.ts'
import { sha256 } from '#server/crypto/secrets.ts'
import { createInFlightGate } from '#server/limits/in-flight.ts'
import type { LimitDecision } from '#server/limits/limiter.ts'
import type { Limits } from '#server/limits/policies.ts'
import { describeWait } from '#server/limits/refusal.ts'

export const PASSWORD_CHECKS_IN_FLIGHT_PER_ADDRESS = 2

export type AuthAttempt =
  | {
      allowed: true
      /** Frees the slot; a login that `succeeded` does not count either. */
      done: (outcome?: { succeeded: boolean }) => Promise<void>
      /** After a login that succeeded: the device cookie's value, this device's from now on. */
      device: () => string
    }
  | { allowed: false; message: string; retryAfterSeconds: number }

export type LoginThrottle = {
  /** `device`: the device cookie the request carried, if any. */
  login: (address: string, email: string, device?: string) => Promise<AuthAttempt>
  /** A sign-up counts against its address like a failed login: each one costs an argon2 hash. */
  signup: (address: string) => Promise<Extract<AuthAttempt, { allowed: false }> | SignupAttempt>
}

export type SignupAttempt = { allowed: true; done: () => Promise<void> }

/** The account's subject in rate_limits: the email is not stored there in the clear. */
function accountSubject(email: string): string {
  return sha256(`login\n${email.trim().toLowerCase()}`).slice(0, 32)
}

function refused(decision: LimitDecision): AuthAttempt {
  const retryAfterSeconds = Math.max(1, decision.retryAfterSeconds)
  return {
    allowed: false,
    message: `${decision.policy.description} Try again in ${describeWait(retryAfterSeconds)}.`,
    retryAfterSeconds,
  }
}

const BUSY: AuthAttempt = {
  allowed: false,
  message: 'Too many sign-in attempts at once from this address. Try again in a second.',
  retryAfterSeconds: 1,
}

export function createLoginThrottle(
  limits: Pick<Limits, 'loginAddress' | 'loginAccount' | 'loginDevice'>,
  devices: LoginDevices,
): LoginThrottle {
  const gate = createInFlightGate(PASSWORD_CHECKS_IN_FLIGHT_PER_ADDRESS)
  return {
    async login(address, email, device) {
      const release = gate.enter(address)
      if (!release) return BUSY
      const subject = accountSubject(email)
      const known = devices.read(subject, device)
      try {
        if (known) {
          const byDevice = await limits.loginDevice.check(known)
          if (!byDevice.allowed) {
            release()
            return refused(byDevice)
          }
          return {
            allowed: true,
            device: () => devices.issue(subject, known),
            async done(outcome) {
              release()
              if (outcome?.succeeded) await limits.loginDevice.refund(known, byDevice)
            },
          }
        }
        const byAddress = await limits.loginAddress.check(address)
        if (!byAddress.allowed) {
          release()
          return refused(byAddress)
        }
        const byAccount = await limits.loginAccount.check(subject)
        if (!byAccount.allowed) {
          release()
          await limits.loginAddress.refund(address, byAddress)
          return refused(byAccount)
        }
        return {
          allowed: true,
          device: () => devices.issue(subject),
          async done(outcome) {
            release()
            if (!outcome?.succeeded) return
            await Promise.all([
              limits.loginAddress.refund(address, byAddress),
              limits.loginAccount.refund(subject, byAccount),
            ])
          },
        }
      } catch (error) {
        release()
        throw error
      }
    },
    async signup(address) {
      const release = gate.enter(address)
      if (!release) return BUSY
      const decision = await limits.loginAddress.check(address).catch((error) => {
        release()
        throw error
      })
      if (!decision.allowed) {
        release()
        return refused(decision)
      }
      return { allowed: true, done: async () => release() }
    },
  }
}
