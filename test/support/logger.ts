import { createLogger } from '#server/logger.ts'

/** Silent unless TEST_LOG_LEVEL is set (e.g. TEST_LOG_LEVEL=debug npm test). */
export function testLogger() {
  return createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' })
}
