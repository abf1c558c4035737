// Structured JSON logs. Every line written while serving a request carries its request id,
// through AsyncLocalStorage, so no function has to pass a logger around to get that.
import { AsyncLocalStorage } from 'node:async_hooks'
import { type Logger, pino } from 'pino'

export type { Logger }

type LogContext = { reqId?: string; runId?: string; jobId?: string }

const logContext = new AsyncLocalStorage<LogContext>()

export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return logContext.run({ ...logContext.getStore(), ...context }, fn)
}

export function createLogger(options: { level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => logContext.getStore() ?? {},
    },
    options.destination ?? pino.destination(1),
  )
}
