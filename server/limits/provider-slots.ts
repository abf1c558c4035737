// A provider's concurrency limit shared by every process (issue 42, item 1): at most `limit` calls
// to it at once across every process on the database. A call holds a slot of `provider_slots` while
// it runs and gives it back when it ends; one whose process died gives it back when its lease runs
// out. A call waits for a slot; it is not refused, only cut short by the run's own signal.
//
// Each process queues its own callers and only the first of them asks Postgres, so a process with
// fifty waiting calls polls as often as one with one; a slot given back in this process goes to the
// next caller at once (decision 041).
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import type { Logger } from '#server/logger.ts'
import { sleepUntil } from '#server/providers/sleep-until.ts'
import { reportWait } from '#server/providers/waits.ts'

/** How often the first waiting caller of a process asks again for a slot another process holds. */
const POLL_MS = 100
/** Callers of several processes do not all ask in the same millisecond. */
const JITTER_MS = 25
/** A wait this long is worth telling the run about ("waiting for openai's concurrency limit"). */
const REPORTED_WAIT_MS = 1000

/** Gives the slot back: call it when the call ends, however it ends (once is enough; more do nothing). */
export type Release = () => void

export type ProviderSlots = { acquire(signal: AbortSignal): Promise<Release> }

/**
 * `leaseMs`: how long a slot is held at most, beyond which another process may take it (a call
 * longer than its own timeout has been abandoned).
 */
export function createProviderSlots(options: {
  pool: pg.Pool
  provider: string
  limit: number
  leaseMs: number
  log?: Logger
}): ProviderSlots {
  const { pool, provider, limit, log } = options
  let held = 0
  const waiting: Array<() => void> = []
  let created: Promise<void> | undefined

  // The provider's rows, made once a process (a smaller limit later leaves the rows above it unused).
  const ensureSlots = () => {
    created ??= pool
      .query(
        `insert into provider_slots (provider, slot) select $1, generate_series(0, $2::int - 1)
         on conflict do nothing`,
        [provider, limit],
      )
      .then(() => undefined)
      .catch((error: unknown) => {
        created = undefined
        throw error
      })
    return created
  }
  /** A free slot (or one whose lease ran out), taken for `holder`; undefined when every one is held. */
  const claim = async (holder: string): Promise<number | undefined> => {
    await ensureSlots()
    const { rows } = await pool.query<{ slot: number }>(
      `update provider_slots set holder = $3, expires_at = now() + make_interval(secs => $4::float8 / 1000)
       where provider = $1 and slot = (
         select slot from provider_slots
         where provider = $1 and slot < $2 and (holder is null or expires_at < now())
         order by slot limit 1 for update skip locked)
       returning slot`,
      [provider, limit, holder, options.leaseMs],
    )
    return rows[0]?.slot
  }
  const giveBack = (slot: number, holder: string): Promise<unknown> =>
    pool
      .query(
        'update provider_slots set holder = null, expires_at = null where provider = $1 and slot = $2 and holder = $3',
        [provider, slot, holder],
      )
      .catch((error: unknown) => {
        log?.warn({ err: error, provider }, 'giving back a provider slot failed; it is free when its lease ends')
      })
  // This process's own callers: no more of them than the limit ask Postgres, first come first served.
  const local = async (signal: AbortSignal): Promise<void> => {
    if (held < limit && waiting.length === 0) {
      held += 1
      return
    }
    await new Promise<void>((resolve, reject) => {
      const next = () => {
        signal.removeEventListener('abort', abort)
        resolve()
      }
      const abort = () => {
        waiting.splice(waiting.indexOf(next), 1)
        reject(signal.reason)
      }
      waiting.push(next)
      signal.addEventListener('abort', abort, { once: true })
    })
  }
  // A place given back goes to the next waiting caller as it is (no newcomer slips in between).
  const leaveLocal = () => {
    const next = waiting.shift()
    if (next) next()
    else held -= 1
  }

  return {
    async acquire(signal) {
      signal.throwIfAborted()
      await local(signal)
      const holder = randomUUID()
      const asked = Date.now()
      let reported = false
      try {
        for (;;) {
          // A slot that cannot be read is no reason to fail the run: this process's own count holds.
          const slot = await claim(holder).catch((error: unknown) => {
            log?.warn({ err: error, provider }, 'taking a provider slot failed; only this process counts its calls')
            return -1
          })
          if (slot !== undefined) {
            let released = false
            return () => {
              if (released) return
              released = true
              // This process's next caller asks once the slot is free in Postgres, not before.
              if (slot >= 0) giveBack(slot, holder).finally(leaveLocal)
              else leaveLocal()
            }
          }
          if (!reported && Date.now() - asked >= REPORTED_WAIT_MS) {
            reported = true
            reportWait({ provider, ms: Date.now() - asked, why: 'shared_concurrency' })
          }
          await sleepUntil(Date.now() + POLL_MS + Math.random() * JITTER_MS, signal)
        }
      } catch (error) {
        leaveLocal()
        signal.throwIfAborted() // the run's own reason (its deadline, a cancel), not the timer's
        throw error
      }
    },
  }
}
