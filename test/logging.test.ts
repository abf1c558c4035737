import { expect, test } from 'vitest'
import { startTestApp } from '#test/support/app.ts'
import { capturingLogger } from '#test/support/logger.ts'

test('each request is logged once, as JSON, with its request id', async () => {
  const { log, lines } = capturingLogger()
  const app = await startTestApp({ log })
  try {
    const response = await app.fetch('/api/missing', { headers: { 'X-Request-Id': 'req-logging-1' } })
    expect(response.status).toBe(401)
    await app.fetch('/dashboard', { headers: { 'X-Request-Id': 'req-logging-2' } })

    const requestLines = lines.filter((line) => line.msg === 'request')
    expect(requestLines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          reqId: 'req-logging-1',
          method: 'GET',
          path: '/api/missing',
          status: 401,
          level: 'info',
        }),
        expect.objectContaining({ reqId: 'req-logging-2', path: '/dashboard', status: 302 }),
      ]),
    )
    expect(requestLines.filter((line) => line.reqId === 'req-logging-1')).toHaveLength(1)
  } finally {
    await app.stop()
  }
})
