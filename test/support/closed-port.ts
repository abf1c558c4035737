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

/** Settings that point every open source at a port nothing listens on: a machine that is offline. */
export async function unreachableOpenSources(): Promise<Record<string, string>> {
  const nowhere = `http://127.0.0.1:${await closedPort()}`
  return {
    GDELT_BASE_URL: nowhere,
    WIKIPEDIA_BASE_URL: nowhere,
    OPENALEX_BASE_URL: nowhere,
    ARXIV_BASE_URL: nowhere,
    HN_SEARCH_BASE_URL: nowhere,
  }
}
