// READER_ALLOW_HOSTS: the private hosts an operator lets the page reader fetch (an intranet wiki, a
// test's stub server). An entry names a host and a port exactly; nothing else opens a private address.

/**
 * `wiki.corp:443,127.0.0.1:8080,[::1]:3000` -> normalized `host:port` entries, as `hostKey` spells a
 * URL's. Throws an Error saying which entry is wrong.
 */
export function parseAllowHosts(spec: string): string[] {
  const entries = spec
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  return entries.map((entry) => {
    if (!/^(\[[0-9a-fA-F:.]+\]|[^\s/:@[\]]+):\d{1,5}$/.test(entry)) {
      throw new Error(`"${entry}" is not host:port (an IPv6 address in brackets: [::1]:8080)`)
    }
    const port = Number(entry.slice(entry.lastIndexOf(':') + 1))
    if (port < 1 || port > 65535) throw new Error(`"${entry}" has a port outside 1 to 65535`)
    let url: URL
    try {
      url = new URL(`http://${entry}`)
    } catch {
      throw new Error(`"${entry}" is not a valid host:port`)
    }
    return `${url.hostname}:${port}`
  })
}

/** The URL's host and port as allow-list entries spell them (lower case, the default port explicit). */
export function hostKey(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  return `${url.hostname}:${port}`
}
