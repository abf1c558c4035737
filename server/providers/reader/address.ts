// Which addresses the page reader may connect to: public unicast only. A search result or a redirect
// can name any host, so loopback, private networks, cloud metadata (169.254.169.254) and every IPv6
// spelling of them (mapped, NAT64) are refused before a socket is opened.
import ipaddr from 'ipaddr.js'

/** The well-known NAT64 prefix (RFC 6052): the last 32 bits are an IPv4 address, judged as such. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96')
/** Global unicast (RFC 4291): IPv6 outside it (IPv4-compatible `::a.b.c.d`, ::/8 and the rest) is refused. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3')

/**
 * 'public', or why not: ipaddr.js's range name ('loopback', 'private', 'linkLocal', 'uniqueLocal',
 * 'carrierGradeNat', ...), prefixed with the IPv6 form that carried an IPv4 address ('ipv4Mapped
 * loopback'). 'invalid' when it is not an IP address at all.
 */
export function addressRange(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''))
  } catch {
    return 'invalid'
  }
  if (parsed.kind() === 'ipv4') return ipv4Range(parsed as ipaddr.IPv4)
  const ipv6 = parsed as ipaddr.IPv6
  if (ipv6.isIPv4MappedAddress()) return prefixed('ipv4Mapped', ipv4Range(ipv6.toIPv4Address()))
  if (ipv6.match(NAT64)) return prefixed('nat64', ipv4Range(embeddedIpv4(ipv6)))
  const range = ipv6.range()
  if (range !== 'unicast') return range
  return ipv6.match(GLOBAL_UNICAST) ? 'public' : 'reserved'
}

export function isPublicAddress(address: string): boolean {
  return addressRange(address) === 'public'
}

function ipv4Range(address: ipaddr.IPv4): string {
  const range = address.range()
  return range === 'unicast' ? 'public' : range
}

function prefixed(form: string, range: string): string {
  return range === 'public' ? 'public' : `${form} ${range}`
}

function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = address.toByteArray()
  return new ipaddr.IPv4(bytes.slice(12))
}
