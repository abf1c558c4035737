// Small text helpers the open sources share: the words of a planned query worth sending to a
// keyword index, HTML fragments made plain, and text clipped to what the engine asked for.

const STOP_WORDS = new Set(
  'an as at be by in is it of on or to vs we the and for with from into onto over under about after before what which when where who why how are was were has have had its their this that these those than then not but can will all any per via'.split(
    ' ',
  ),
)

/**
 * The distinctive words of a query, in order, at most `max`: words of `minLength` characters or more
 * that are not stop words (keyword indexes that AND every term find nothing for a long planned
 * query), with a hyphenated word kept whole ("sodium-ion").
 */
export function significantWords(text: string, max: number, minLength = 2): string[] {
  const words = text.match(/[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu) ?? []
  const kept: string[] = []
  for (const word of words) {
    const lower = word.toLowerCase()
    if (word.length < minLength || STOP_WORDS.has(lower)) continue
    if (kept.some((seen) => seen.toLowerCase() === lower)) continue
    kept.push(word)
    if (kept.length === max) break
  }
  return kept
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** An HTML fragment (a snippet, a story's text) as plain text: tags dropped, entities decoded. */
export function plainText(html: string): string {
  return html
    .replace(/<(p|br|li|div)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
      if (/^#x/i.test(name)) return safeCodePoint(Number.parseInt(name.slice(2), 16), entity)
      if (name.startsWith('#')) return safeCodePoint(Number.parseInt(name.slice(1), 10), entity)
      return ENTITIES[name.toLowerCase()] ?? entity
    })
    .replace(/\s+/g, ' ')
    .trim()
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : fallback
}

export function clip(text: string, maxCharacters: number): string {
  return text.length <= maxCharacters ? text : text.slice(0, maxCharacters)
}

/** `YYYY-MM-DD` as a Date at midnight UTC, or undefined. */
export function dayStart(isoDate: string | undefined): Date | undefined {
  if (!isoDate) return undefined
  const time = Date.parse(`${isoDate.slice(0, 10)}T00:00:00Z`)
  return Number.isNaN(time) ? undefined : new Date(time)
}

/**
 * arXiv's abstract page for an arXiv URL (`http://arxiv.org/abs/2301.00001v2`, `.../pdf/2301.00001`),
 * without the version: arXiv and OpenAlex name the same preprint so, and it is found once.
 */
export function arxivAbsUrl(url: string): string | undefined {
  const match = /^https?:\/\/(?:www\.|export\.)?arxiv\.org\/(?:abs|pdf)\/(.+?)(?:v\d+)?(?:\.pdf)?\/?$/i.exec(url.trim())
  return match ? `https://arxiv.org/abs/${match[1]}` : undefined
}

/**
 * A provider's date as ISO 8601: an ISO date or datetime is kept as given (with or without a zone);
 * another form Date can read becomes a UTC datetime ("Mon, 13 Jan 2025 18:45:12 GMT"), or a date when
 * it has no time ("January 15, 2024", read as UTC, not the server's zone); anything else is null.
 */
export function isoDate(value: string | null | undefined): string | null {
  const text = value?.trim()
  if (!text) return null
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) {
    return Number.isNaN(Date.parse(text.replace(' ', 'T'))) ? null : text.replace(' ', 'T')
  }
  const zoned = /\b(GMT|UTC|Z)\b|[+-]\d{2}:?\d{2}$/.test(text)
  const time = Date.parse(zoned ? text : `${text} UTC`)
  if (Number.isNaN(time)) return null
  const iso = new Date(time).toISOString()
  return /\d:\d/.test(text) ? iso : iso.slice(0, 10)
}
