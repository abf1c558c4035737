// The database as /healthz sees it: `select 1` on a connection of its own, so health checks neither
// wait behind nor take a connection from the app's pool, at most once a second however often they
// come. Losing that connection (the server died) forgets the last answer, so the next check asks.
import pg from 'pg'
import type { Logger } from '#server/logger.ts'

export type Liveness = { ok: true } | { ok: false; error: string }

export type DatabaseLiveness = {
  check: () => Promise<Liveness>
  close: () => Promise<void>
}

export function createDatabaseLiveness(options: {
  connectionString: string
  log: Logger
  intervalMs?: number
  timeoutMs?: number
}): DatabaseLiveness {
  const { connectionString, log, intervalMs = 1000, timeoutMs = 2000 } = options
  let client: pg.Client | undefined
  let last: { at: number; result: Liveness } | undefined
  let inFlight: Promise<Liveness> | undefined
  let wasUp = true
  let closed = false

  function drop(which: pg.Client) {
    if (client !== which) return
    client = undefined
    last = undefined
    which.end().catch(() => {})
  }

  async function ping(): Promise<void> {
    if (closed) throw new Error('closed')
    if (!client) {
      const next = new pg.Client({
        connectionString,
        connectionTimeoutMillis: timeoutMs,
        query_timeout: timeoutMs,
        application_name: 'sextant-health',
      })
      next.on('error', () => drop(next))
      next.on('end', () => drop(next))
      client = next
      await next.connect()
    }
    await client.query('select 1')
  }

  async function probe(): Promise<Liveness> {
    let result: Liveness
    try {
      await ping()
      result = { ok: true }
    } catch (error) {
      if (client) drop(client)
      result = { ok: false, error: error instanceof Error ? error.message : String(error) }
    }
    // Logged when it changes, not on every check during an outage.
    if (wasUp && !result.ok) log.warn({ error: result.error }, 'the database is not answering')
    if (!wasUp && result.ok) log.info('the database answers again')
    wasUp = result.ok
    last = { at: Date.now(), result }
    return result
  }

  return {
    check() {
      if (last && Date.now() - last.at < intervalMs) return Promise.resolve(last.result)
      inFlight ??= probe().finally(() => {
        inFlight = undefined
      })
      return inFlight
    },
    async close() {
      closed = true
      const which = client
      client = undefined
      await which?.end().catch(() => {})
    },
  }
}
