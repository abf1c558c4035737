import type { AddressInfo } from 'node:net'
import express from 'express'
import { expect, test } from 'vitest'
import { HttpProblem, problemErrorHandler } from '#server/http/problem.ts'
import { requestContext } from '#server/http/request-context.ts'
import { capturingLogger } from '#test/support/logger.ts'

async function serve(app: express.Express) {
  const server = app.listen(0)
  await new Promise((resolve) => server.once('listening', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
}

test('an unexpected error is a 500 with only the request id; the details go to the log', async () => {
  const { log, lines } = capturingLogger()
  const app = express()
  app.use(requestContext(log))
  app.get('/boom', () => {
    throw new Error('connection string postgres://admin:hunter2@db')
  })
  app.get('/teapot', () => {
    throw new HttpProblem({ status: 418, title: "I'm a teapot", detail: 'Short and stout.' })
  })
  app.use(problemErrorHandler(log))
  const server = await serve(app)
  try {
    const response = await fetch(`${server.url}/boom`)
    expect(response.status).toBe(500)
    expect(response.headers.get('content-type')).toContain('application/problem+json')
    const text = await response.text()
    expect(text).not.toContain('hunter2')
    expect(JSON.parse(text)).toEqual({
      type: 'about:blank',
      status: 500,
      title: 'Internal Server Error',
      detail: expect.stringContaining('request id'),
      requestId: response.headers.get('x-request-id'),
    })
    const logged = lines.find((line) => line.msg === 'unhandled error while serving a request')
    expect(logged).toMatchObject({ level: 'error', reqId: response.headers.get('x-request-id') })
    expect(JSON.stringify(logged)).toContain('hunter2')

    const teapot = await fetch(`${server.url}/teapot`)
    expect(teapot.status).toBe(418)
    expect(await teapot.json()).toMatchObject({ title: "I'm a teapot", detail: 'Short and stout.' })
  } finally {
    server.close()
  }
})
