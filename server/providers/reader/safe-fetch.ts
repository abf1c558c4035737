// One GET that can only reach what the reader is allowed to reach. Each hop: http(s) only; the host
// resolved once, and every address public (or the host:port in READER_ALLOW_HOSTS); the connection
// made to those very addresses (the socket's lookup answers with them, so a second DNS answer cannot
// swap in another); redirects followed by hand, each one vetted again, at most `maxRedirects`.
import type { LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { pipeline, type Readable } from 'node:stream'
import zlib from 'node:zlib'
import { addressRange, isPublicAddress } from '#server/providers/reader/address.ts'
import { hostKey } from '#server/providers/reader/allow-hosts.ts'
import type { HostSlots } from '#server/providers/reader/host-slots.ts'

/** Resolves a host name to all its addresses (dns.lookup with `all: true`, or a test's own). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>

/** Why a page is not read: a short phrase a user reads ("over 2 MiB", "robots.txt disallows it"). */
export class Refusal extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'Refusal'
  }
}

export type SafeFetchContext = {
  userAgent: string
  accept: string
  allowHosts: ReadonlySet<string>
  resolve: Resolver
  slots: HostSlots
  maxRedirects: number
}

export type SafeFetchOptions = {
  signal: AbortSignal
  maxBytes: number
  /** Media types whose body is read; a 2xx of any other type answers without a body. Absent: any. */
  mediaTypes?: ReadonlySet<string>
  /** Runs before each hop's request (robots.txt); throws a Refusal to stop there. */
  beforeHop?: (url: URL, signal: AbortSignal) => Promise<void>
}

export type Fetched = {
  /** The final URL, after redirects. */
  url: string
  status: number
  /** Lower case, without parameters; '' when the server sent none. */
  mediaType: string
  charset: string | undefined
  /** Read only for a 2xx of an accepted media type. */
  body: Buffer | null
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

export async function safeFetch(start: string, context: SafeFetchContext, options: SafeFetchOptions): Promise<Fetched> {
  let url = parseTarget(start)
  for (let redirects = 0; ; redirects++) {
    const addresses = await vet(url, context)
    await options.beforeHop?.(url, options.signal)
    const release = await context.slots.acquire(url.hostname, options.signal)
    try {
      const response = await get(url, addresses, context, options.signal)
      const status = response.statusCode ?? 0
      if (REDIRECTS.has(status)) {
        response.destroy()
        if (redirects >= context.maxRedirects) throw new Refusal(`more than ${context.maxRedirects} redirects`)
        const location = response.headers.location
        if (!location) throw new Refusal('a redirect without a Location')
        url = parseTarget(location, url)
        continue
      }
      const { mediaType, charset } = parseContentType(response.headers['content-type'])
      const wanted = status >= 200 && status < 300 && (!options.mediaTypes || options.mediaTypes.has(mediaType))
      if (!wanted) {
        response.destroy()
        return { url: url.href, status, mediaType, charset, body: null }
      }
      const body = await readCapped(response, options.maxBytes, options.signal)
      return { url: url.href, status, mediaType, charset, body }
    } finally {
      release()
    }
  }
}

function parseTarget(target: string, base?: URL): URL {
  let url: URL
  try {
    url = new URL(target, base)
  } catch {
    throw new Refusal(base ? 'a redirect to something that is not a URL' : 'not a URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Refusal(`not http or https (${url.protocol.slice(0, 20)})`)
  }
  if (url.username || url.password) throw new Refusal('a URL with a user name or password')
  return url
}

/** A host at an address that is not public: which address, and ipaddr.js's name for its range. */
export class AddressRefusal extends Refusal {
  readonly address: string
  readonly range: string
  constructor(address: string) {
    super('resolves to a private address')
    this.address = address
    this.range = addressRange(address)
  }
}

/**
 * The addresses the hop may connect to: all of them public, unless the operator admitted the host.
 * Outbound webhooks vet their endpoints with it too (server/notify/webhooks/target.ts).
 */
export async function vet(
  url: URL,
  context: Pick<SafeFetchContext, 'allowHosts' | 'resolve'>,
): Promise<LookupAddress[]> {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const admitted = context.allowHosts.has(hostKey(url))
  const family = net.isIP(host)
  let addresses: LookupAddress[]
  if (family !== 0) addresses = [{ address: host, family }]
  else {
    try {
      addresses = await context.resolve(host)
    } catch {
      throw new Refusal('the host name does not resolve')
    }
    if (addresses.length === 0) throw new Refusal('the host name does not resolve')
  }
  const refused = admitted ? undefined : addresses.find((entry) => !isPublicAddress(entry.address))
  if (refused) throw new AddressRefusal(refused.address)
  return addresses
}

function get(url: URL, addresses: LookupAddress[], context: SafeFetchContext, signal: AbortSignal) {
  const client = url.protocol === 'https:' ? https : http
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'GET',
        // A fresh connection for every request: no pooled socket made for another address is reused.
        agent: false,
        lookup: pinnedLookup(addresses),
        signal,
        headers: {
          'User-Agent': context.userAgent,
          Accept: context.accept,
          'Accept-Encoding': 'gzip, deflate, br',
        },
      },
      resolve,
    )
    request.on('error', reject)
    request.end()
  })
}

/** A socket lookup that answers with the vetted addresses only (never a second DNS query). */
export function pinnedLookup(addresses: LookupAddress[]): net.LookupFunction {
  return (_hostname, options, callback) => {
    const family = typeof options === 'object' ? options.family : options
    const candidates = addresses.filter((entry) => !family || entry.family === family)
    if (candidates.length === 0) {
      const error = Object.assign(new Error('no vetted address of that family'), { code: 'ENOTFOUND' })
      callback(error, '', 0)
      return
    }
    const callbackAny = callback as (error: Error | null, ...answer: unknown[]) => void
    if (typeof options === 'object' && options.all) callbackAny(null, candidates)
    else callbackAny(null, candidates[0]?.address, candidates[0]?.family)
  }
}

function parseContentType(header: string | undefined): { mediaType: string; charset: string | undefined } {
  if (!header) return { mediaType: '', charset: undefined }
  const [type = '', ...parameters] = header.split(';')
  const charset = parameters
    .map((parameter) => parameter.trim().match(/^charset\s*=\s*"?([^";\s]+)"?$/i)?.[1])
    .find((value) => value !== undefined)
  return { mediaType: type.trim().toLowerCase(), charset }
}

/** The decoded body, refused once it passes `maxBytes` (compressed or not: a small gzip can inflate). */
async function readCapped(response: http.IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const tooLarge = () => new Refusal(`over ${formatBytes(maxBytes)}`)
  const declared = Number(response.headers['content-length'])
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy()
    throw tooLarge()
  }
  const stream = decoded(response)
  const stop = () => stream.destroy(signal.reason)
  signal.addEventListener('abort', stop, { once: true })
  try {
    const chunks: Buffer[] = []
    let total = 0
    for await (const chunk of stream) {
      total += (chunk as Buffer).length
      if (total > maxBytes) {
        stream.destroy()
        response.destroy()
        throw tooLarge()
      }
      chunks.push(chunk as Buffer)
    }
    return Buffer.concat(chunks)
  } finally {
    signal.removeEventListener('abort', stop)
  }
}

function decoded(response: http.IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
  const decompressor =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined
  if (decompressor) return pipeline(response, decompressor, () => {})
  if (encoding === 'identity' || encoding === '') return response
  response.destroy()
  throw new Refusal(`an unsupported content encoding (${encoding.slice(0, 20)})`)
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / 1024 / 1024).toFixed(1))} MiB`
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`
  return `${bytes} bytes`
}
