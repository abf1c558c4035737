// The HTTP server around the Express app, with the limits that keep idle and half-sent connections
// from holding it: headers and the whole request must arrive in time, idle keep-alive connections
// close, and one address holds a bounded number of sockets.

import type { RequestListener } from 'node:http'
import http from 'node:http'
import type { Config } from '#server/config.ts'
import { capConnectionsPerAddress } from '#server/http/connection-cap.ts'
import { answerClientError } from '#server/http/problem.ts'
import type { Logger } from '#server/logger.ts'

export async function startHttpServer(app: RequestListener, config: Config, log: Logger): Promise<http.Server> {
  const server = http.createServer(
    {
      // Both only bound *receiving* a request: once it is in, the response (an event stream for
      // hours) is not timed. Node checks them on this interval, so a cut comes at most 1 s late.
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      connectionsCheckingInterval: 1000,
    },
    app,
  )
  // Between requests on a kept-alive connection; a response in progress is never cut by it.
  server.keepAliveTimeout = config.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000
  // No inactivity timeout on sockets: an event stream is quiet between its keep-alive comments.
  server.timeout = 0
  capConnectionsPerAddress(server, { max: config.MAX_CONNECTIONS_PER_ADDRESS, log })
  server.on('clientError', answerClientError)

  server.listen(config.PORT, config.HOST)
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve)
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${config.PORT} is already in use. Set PORT to a free port (or 0 for any).`)
          : error,
      ),
    )
  })
  log.info(
    {
      headersTimeoutSeconds: config.HTTP_HEADERS_TIMEOUT_SECONDS,
      requestTimeoutSeconds: config.HTTP_REQUEST_TIMEOUT_SECONDS,
      keepAliveTimeoutSeconds: config.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS,
      maxConnectionsPerAddress: config.MAX_CONNECTIONS_PER_ADDRESS || 'none',
    },
    config.MAX_CONNECTIONS_PER_ADDRESS === 0 && config.TRUST_PROXY > 0
      ? 'HTTP limits (no connection cap per address: behind TRUST_PROXY every socket is the proxy)'
      : 'HTTP limits',
  )
  return server
}
