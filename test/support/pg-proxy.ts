// A TCP proxy in front of Postgres that a test steers, to stage what the network does to a listen
// connection at exact moments: drop it, keep new connections waiting, and hold what the server
// answers to a LISTEN so that it reaches the client in one piece with what follows.
import { once } from 'node:events'
import net from 'node:net'
import { onTestFinished } from 'vitest'

export type PgProxy = {
  /** The connection string to give the client under test. */
  url: string
  /** Destroys every open connection, as a dropped network would. */
  cut(): void
  /** While closed, new connections wait (the client sees a slow connect) until `open()`. */
  close(): void
  open(): void
  /**
   * From now on, once a connection sends a LISTEN, what the server sends it is held (`held()`
   * bytes) until `release()` writes it all at once.
   */
  holdAfterListen(): void
  held(): Buffer
  release(): void
}

export async function startPgProxy(databaseUrl: string): Promise<PgProxy> {
  const target = new URL(databaseUrl)
  const sockets = new Set<net.Socket>()
  let waiting: Array<() => void> | undefined
  let holdMode = false
  let holding: { chunks: Buffer[]; to: net.Socket } | undefined

  const server = net.createServer((client) => {
    sockets.add(client)
    client.on('close', () => sockets.delete(client))
    client.on('error', () => {})
    client.pause()
    const connect = () => {
      if (client.destroyed) return
      const upstream = net.connect(Number(target.port || 5432), target.hostname)
      sockets.add(upstream)
      upstream.on('close', () => {
        sockets.delete(upstream)
        client.destroy()
      })
      upstream.on('error', () => {})
      client.on('close', () => upstream.destroy())
      let listening = false
      client.on('data', (chunk: Buffer) => {
        if (holdMode && !listening && chunk.includes('LISTEN')) {
          listening = true
          holding = { chunks: [], to: client }
        }
        upstream.write(chunk)
      })
      upstream.on('data', (chunk: Buffer) => {
        if (listening && holding?.to === client) holding.chunks.push(chunk)
        else client.write(chunk)
      })
      client.resume()
    }
    if (waiting) waiting.push(connect)
    else connect()
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as net.AddressInfo
  const url = new URL(databaseUrl)
  url.hostname = '127.0.0.1'
  url.port = String(port)

  const proxy: PgProxy = {
    url: url.toString(),
    cut() {
      for (const socket of sockets) socket.destroy()
    },
    close() {
      waiting ??= []
    },
    open() {
      const queued = waiting ?? []
      waiting = undefined
      for (const connect of queued) connect()
    },
    holdAfterListen() {
      holdMode = true
    },
    held() {
      return Buffer.concat(holding?.chunks ?? [])
    },
    release() {
      holdMode = false
      if (!holding) return
      const { chunks, to } = holding
      holding = undefined
      to.write(Buffer.concat(chunks))
    },
  }
  onTestFinished(async () => {
    proxy.cut()
    server.close()
  })
  return proxy
}
