import net from 'node:net'

/**
 * A port nothing listens on: connections to it are refused at once. (Not a well-known one such as
 * 9: fetch refuses the ports the Fetch standard bars before it connects, which is another failure.)
 */
export async function closedPort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
