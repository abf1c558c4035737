// A cap on the TCP connections one client address holds open, so one machine cannot take every file
// descriptor with idle or half-sent connections and leave nothing for anyone else (or /healthz).
// It counts the socket's peer address: behind TRUST_PROXY that is the proxy, so the default there is
// no cap (config.ts) and the proxy must bound its clients. Loopback counts like any other address.
import { isIPv6, type Server, type Socket } from 'node:net'
import type { Logger } from '#server/logger.ts'

/**
 * The unit a cap counts: an IPv4 address, or an IPv6 /64 (one subscriber's network: a client
 * holding a /64 could otherwise take a new address for every connection).
 */
export function addressGroup(address: string | undefined): string {
  if (!address) return 'unknown'
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7)
  if (!isIPv6(address)) return address
  const [head = '', tail] = (address.split('%')[0] ?? '').split('::')
  const headGroups = head === '' ? [] : head.split(':')
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':')
  // An embedded IPv4 address (::1.2.3.4) is two groups.
  const tailLength = tailGroups.reduce((sum, group) => sum + (group.includes('.') ? 2 : 1), 0)
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailLength).fill('0')
  const groups = [...headGroups, ...zeros, ...tailGroups].slice(0, 4)
  return `${groups.map((group) => Number.parseInt(group, 16).toString(16)).join(':')}::/64`
}

/** Destroys each new connection beyond `max` from one address group; `max` 0 means no cap. */
export function capConnectionsPerAddress(server: Server, options: { max: number; log: Logger }): void {
  const { max, log } = options
  if (max === 0) return
  const open = new Map<string, number>()
  // Logged once per episode (until the group's connections are all gone), not once per refused
  // socket: that would turn the attack into a flood of log lines.
  const refusing = new Set<string>()

  server.on('connection', (socket: Socket) => {
    const group = addressGroup(socket.remoteAddress)
    const count = open.get(group) ?? 0
    if (count >= max) {
      if (!refusing.has(group)) {
        refusing.add(group)
        log.warn({ address: group, max }, 'connection cap reached for an address; refusing its new connections')
      }
      socket.destroy()
      return
    }
    open.set(group, count + 1)
    socket.once('close', () => {
      const left = (open.get(group) ?? 1) - 1
      if (left > 0) {
        open.set(group, left)
        return
      }
      open.delete(group)
      refusing.delete(group)
    })
  })
}
