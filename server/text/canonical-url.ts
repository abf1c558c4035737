// One spelling per web page, so the ledger and the source list do not count a page twice because
// of a tracking parameter, a fragment or a trailing slash.

/**
 * Query parameters that only identify the campaign, click or share that led to a page, never the
 * page itself. Compared lower-case; `utm_*` is matched as a prefix. `si` (YouTube and Spotify share
 * ids) is left out on purpose: elsewhere it can be a real parameter, and one list is easier to
 * trust than rules per site.
 */
const TRACKING_PARAMETERS = new Set([
  'gclid',
  'gclsrc',
  'gbraid',
  'wbraid',
  'dclid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'igshid',
  'mc_cid',
  'mc_eid',
  'ref_src',
  '_hsenc',
  '_hsmi',
])

/**
 * The canonical form of an absolute http(s) URL, or undefined for anything else. WHATWG parsing
 * lower-cases the scheme and host, turns IDN hosts into punycode, drops default ports and resolves
 * dot segments; on top of that the fragment, credentials and tracking parameters go, the remaining
 * parameters are sorted by name, and a trailing slash is removed. The path keeps its case.
 */
export function canonicalUrl(raw: string): string | undefined {
  const url = URL.parse(raw.trim())
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return undefined
  // Credentials are dropped: they do not change which page it is, and memory must not keep secrets.
  return `${url.protocol}//${url.host}${canonicalPath(url.pathname)}${canonicalQuery(url.search)}`
}

function canonicalPath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '')
  return trimmed === '' ? '/' : trimmed
}

/**
 * Works on the raw `name=value` pairs rather than URLSearchParams, whose serializer would rewrite
 * `%20` as `+` and `?flag` as `?flag=`, changing what some servers receive. The sort is stable and
 * by name only, so repeated parameters (`a=2&a=1`) keep their order, which can matter.
 */
function canonicalQuery(search: string): string {
  const pairs = search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && !isTrackingParameter(parameterName(pair)))
    .sort((a, b) => compareStrings(parameterName(a), parameterName(b)))
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`
}

function parameterName(pair: string): string {
  const separator = pair.indexOf('=')
  return separator === -1 ? pair : pair.slice(0, separator)
}

function isTrackingParameter(rawName: string): boolean {
  const name = decodeParameterName(rawName).toLowerCase()
  return name.startsWith('utm_') || TRACKING_PARAMETERS.has(name)
}

function decodeParameterName(rawName: string): string {
  try {
    return decodeURIComponent(rawName.replaceAll('+', ' '))
  } catch {
    // A malformed escape cannot spell a tracking parameter's name; keep the pair as written.
    return rawName
  }
}

/** Code-unit order, not locale order, so the canonical form is the same on every machine. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
