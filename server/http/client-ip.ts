// The address a request came from. Proxy headers are believed only when TRUST_PROXY says how many
// proxies stand in front of us; otherwise anyone could pick their own rate-limit bucket.
import { isIP } from 'node:net'
import type { Request } from 'express'

function normalize(address: string | undefined): string {
  if (!address) return 'unknown'
  return address.startsWith('::ffff:') ? address.slice(7) : address
}

export function isLoopback(address: string | undefined): boolean {
  const ip = normalize(address)
  return ip === '::1' || ip.startsWith('127.')
}

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Whether a Host header names this machine by a loopback name. A browser tricked by DNS rebinding
 * sends the attacker's name (attacker.test resolving to 127.0.0.1), so a loopback socket alone
 * proves nothing about who made the page that sent the request.
 */
export function isLoopbackHost(host: string | undefined): boolean {
  // Only a name and a port: no userinfo, path or other tricks for the URL parser to read around.
  if (!host || !/^[A-Za-z0-9.:[\]-]+$/.test(host) || !URL.canParse(`http://${host}`)) return false
  return LOOPBACK_HOSTNAMES.has(new URL(`http://${host}`).hostname)
}

export function clientIp(req: Request, trustProxy: number): string {
  const socketIp = normalize(req.socket.remoteAddress)
  if (trustProxy === 0) return socketIp
  const fly = req.get('fly-client-ip')?.trim()
  if (fly && isIP(fly)) return fly
  // Each trusted proxy appends the address it saw: the client is trustProxy entries from the end.
  const forwarded = (req.get('x-forwarded-for') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
  const candidate = forwarded[forwarded.length - trustProxy]
  return candidate && isIP(candidate) ? normalize(candidate) : socketIp
}
