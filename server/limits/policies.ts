// The limits of spec section 8: research runs per client IP, MCP calls per API key, demo key uses
// per client IP. Limits come from config; nothing here reads the environment.
import type pg from 'pg'
import { createLimiter, type Limiter } from '#server/limits/limiter.ts'
import type { Logger } from '#server/logger.ts'

export type Limits = { runs: Limiter; mcp: Limiter; demo: Limiter }

const HOUR = 3600
const DAY = 24 * HOUR

export function createLimits(options: {
  pool: pg.Pool
  runsPerHour: number
  mcpPerHour: number
  demoPerDay: number
  log?: Logger
}): Limits {
  const { pool, runsPerHour, mcpPerHour, demoPerDay, log } = options
  return {
    runs: createLimiter({
      pool,
      log,
      policy: {
        name: 'runs',
        limit: runsPerHour,
        windowSeconds: HOUR,
        description: `You can start ${count(runsPerHour, 'research run')} per hour from one address.`,
      },
    }),
    mcp: createLimiter({
      pool,
      log,
      policy: {
        name: 'mcp',
        limit: mcpPerHour,
        windowSeconds: HOUR,
        description: `You can make ${count(mcpPerHour, 'MCP tool call')} per hour with one API key.`,
      },
    }),
    demo: createLimiter({
      pool,
      log,
      policy: {
        name: 'demo',
        limit: demoPerDay,
        windowSeconds: DAY,
        description: `You can use the demo key ${count(demoPerDay, 'time')} per day from one address.`,
      },
    }),
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}
