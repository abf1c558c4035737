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
