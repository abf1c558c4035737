// The page reader (issue 18): fetches a search result's page itself and returns its article text,
// for providers that give a snippet only. Safe by construction (reader/safe-fetch.ts): public
// addresses only, checked at every redirect; 2 MiB, 10 s, HTML and plain text; robots.txt obeyed;
// two requests per host at once; pages parsed in worker threads that end at the deadline. A page it
// cannot read is an answer (`ok: false` with the reason), never an exception, except when the
// caller's own signal aborts.
import dns from 'node:dns'
import { decodeBody, plainParagraphs, storable } from '#server/providers/reader/body-text.ts'
import { createExtractionPool } from '#server/providers/reader/extraction-pool.ts'
import { createHostSlots } from '#server/providers/reader/host-slots.ts'
import { createRobots } from '#server/providers/reader/robots.ts'
import { Refusal, type Resolver, safeFetch } from '#server/providers/reader/safe-fetch.ts'

export type ReadPage =
  | {
      ok: true
      /** The final URL, after redirects. */
      url: string
      /** The article's title; '' for plain text, which has none. */
      title: string
      /** The article text, paragraphs separated by blank lines. */
      text: string
      /** ISO datetime the page states it was published (meta, JSON-LD), or null. */
      publishedDate: string | null
    }
  | { ok: false; reason: string }

export type PageReader = {
  read(url: string, options: { signal: AbortSignal }): Promise<ReadPage>
}

export type PageReaderOptions = {
  /** Where people reach this server: the User-Agent names it, so a site knows who is reading. */
  publicUrl: string
  /** READER_ALLOW_HOSTS, parsed: `host:port` entries admitted even at private addresses. */
  allowHosts?: readonly string[]
  /** All addresses of a host name. Default: dns.lookup (the system resolver, /etc/hosts included). */
  resolve?: Resolver
  /** The whole read: robots.txt, redirects and body. Default 10 s. */
  timeoutMs?: number
  /** Largest body read, after decompression. Default 2 MiB. */
  maxBytes?: number
  maxRedirects?: number
  perHost?: number
  /** Pages parsed at once, each in a worker thread of its own. Default 2. */
  parsers?: number
  /** How long robots.txt is trusted. Default an hour; an unreachable one closes its site for a minute. */
  robotsTtlMs?: number
}

const AGENT = 'Sextant'
const PAGE_TYPES = new Set(['text/html', 'application/xhtml+xml', 'text/plain'])
const ROBOTS_MAX_BYTES = 512 * 1024

export function createPageReader(options: PageReaderOptions): PageReader {
  const timeoutMs = options.timeoutMs ?? 10_000
  const maxBytes = options.maxBytes ?? 2 * 1024 * 1024
  const context = {
    userAgent: `${AGENT}/1.0 (+${options.publicUrl})`,
    accept: 'text/html,application/xhtml+xml,text/plain;q=0.9',
    allowHosts: new Set(options.allowHosts ?? []),
    resolve: options.resolve ?? resolveAll,
    slots: createHostSlots(options.perHost ?? 2),
    maxRedirects: options.maxRedirects ?? 5,
  }
  const pool = createExtractionPool({ size: options.parsers ?? 2 })
  const robots = createRobots({
    agent: AGENT,
    ttlMs: options.robotsTtlMs ?? 60 * 60 * 1000,
    failureTtlMs: 60 * 1000,
    timeoutMs,
    async fetch(robotsUrl, signal) {
      const fetched = await safeFetch(
        robotsUrl,
        { ...context, accept: 'text/plain,*/*;q=0.5' },
        {
          signal,
          maxBytes: ROBOTS_MAX_BYTES,
        },
      )
      return {
        status: fetched.status,
        body: fetched.body ? decodeBody(fetched.body, 'text/plain', fetched.charset) : null,
      }
    },
  })

  async function read(url: string, { signal }: { signal: AbortSignal }): Promise<ReadPage> {
    signal.throwIfAborted()
    const deadline = AbortSignal.timeout(timeoutMs)
    const readSignal = AbortSignal.any([signal, deadline])
    let parsing = false
    try {
      const fetched = await safeFetch(url, context, {
        signal: readSignal,
        maxBytes,
        mediaTypes: PAGE_TYPES,
        beforeHop: robots.check,
      })
      if (fetched.status < 200 || fetched.status >= 300) return refused(`the site answered ${fetched.status}`)
      if (!fetched.body) return refused(`not HTML or text (${describeType(fetched.mediaType)})`)
      const text = decodeBody(fetched.body, fetched.mediaType, fetched.charset)
      if (fetched.mediaType === 'text/plain') {
        const paragraphs = plainParagraphs(text)
        if (!paragraphs) return refused('an empty page')
        return { ok: true, url: fetched.url, title: '', text: paragraphs, publishedDate: null }
      }
      parsing = true
      const article = await pool.extract(text, readSignal)
      if (!article) return refused('no article text found on the page')
      return {
        ok: true,
        url: fetched.url,
        title: storable(article.title),
        text: storable(article.text),
        publishedDate: article.publishedDate,
      }
    } catch (error) {
      if (signal.aborted) throw signal.reason // the run was cancelled or ran out of time: not the page's doing
      if (deadline.aborted) {
        return refused(
          parsing
            ? `too slow to parse (over ${formatSeconds(timeoutMs)})`
            : `did not answer in ${formatSeconds(timeoutMs)}`,
        )
      }
      if (error instanceof Refusal) return refused(error.message)
      return refused(networkReason(error))
    }
  }

  return { read }
}

function refused(reason: string): ReadPage {
  return { ok: false, reason }
}

/** Every address of a host name, as the system resolves it (/etc/hosts included). */
export async function resolveAll(hostname: string) {
  return dns.promises.lookup(hostname, { all: true, verbatim: true })
}

/** The server's Content-Type, only when it looks like one (it is the site's text, shown to users). */
function describeType(mediaType: string): string {
  if (!mediaType) return 'no content type'
  return /^[\w.+-]{1,40}\/[\w.+-]{1,60}$/.test(mediaType) ? mediaType : 'an unknown content type'
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`
}

function networkReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return 'the connection failed'
  if (code === 'ECONNREFUSED') return 'the connection was refused'
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'the connection was closed'
  if (code === 'ETIMEDOUT' || code === 'ENETUNREACH' || code === 'EHOSTUNREACH') return 'the site is unreachable'
  if (code.startsWith('HPE_')) return 'malformed HTTP'
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code.includes('SIGNATURE') || code.startsWith('ERR_SSL')) {
    return 'TLS certificate not accepted'
  }
  return `the connection failed (${code.slice(0, 40)})`
}
