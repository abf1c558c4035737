import { Writable } from 'node:stream'
import { createLogger } from '#server/logger.ts'

/** Silent unless TEST_LOG_LEVEL is set (e.g. TEST_LOG_LEVEL=debug npm test). */
export function testLogger() {
  return createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' })
}

/** A logger whose JSON lines are kept in `lines`, for tests that assert on logs. */
export function capturingLogger() {
  const lines: Array<Record<string, unknown>> = []
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text))
      callback()
    },
  })
  return { log: createLogger({ level: 'debug', destination }), lines }
}
