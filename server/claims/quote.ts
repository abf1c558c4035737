// Is a quote really on the page? A claim is shown only when its quote occurs in the text of a source
// it cites. The match forgives exactly what copying text tends to change and nothing more: runs of
// whitespace, the kind of quote mark and dash, letter case and Unicode compatibility forms (NFKC:
// "…" and "...", full-width letters). No fuzzy matching: a quote with one word changed is not found.
import { renderedText } from '#server/text/rendered-text.ts'
import { singleSpaced } from '#server/text/spacing.ts'

/** A quote shorter than this (after normalising) supports nothing: "the", "80%" occur anywhere. */
export const MIN_QUOTE_CHARACTERS = 12
export const MIN_QUOTE_WORDS = 3

const QUOTE_MARKS = /['‘’‚‛′"“”„‟″«»‹›＂＇`´]/u
const DASHES = /[‐‑‒–—―−﹘﹣－⁃]/u
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/u
const SPACE = /\s/u

/** Text in the form quotes are compared in, and where each of its characters came from. */
export type NormalizedText = { text: string; origin: number[] }

/**
 * Lower-cased NFKC text with every quote mark as `"`, every dash as `-`, invisible characters dropped
 * and whitespace runs as one space (none at the ends). `origin[i]` is the offset in `raw` of the code
 * point that produced character i, so a match can be mapped back to the page's own words.
 */
export function normalizeForQuote(raw: string): NormalizedText {
  return normalize(raw, [])
}

/** normalizeForQuote's text alone: what quotes are compared by. */
export function quoteText(raw: string): string {
  return normalize(raw, undefined).text
}

function normalize(raw: string, origin: number[] | undefined): NormalizedText {
  let text = ''
  let pendingSpace = false
  // What each other code point of this text becomes, worked out once per text.
  const seen = new Map<number, string[]>()
  for (let at = 0; at < raw.length; ) {
    NON_ASCII.lastIndex = at
    const end = NON_ASCII.exec(raw)?.index ?? raw.length
    if (end > at) {
      // An ASCII stretch (most of a page) is rewritten by string methods: lower case, the ASCII quote
      // marks as `"`, whitespace runs as one space; its ends only set or keep a pending space.
      let first = at
      while (first < end && ASCII_SPACE[raw.charCodeAt(first)] === 1) first++
      let last = end
      while (last > first && ASCII_SPACE[raw.charCodeAt(last - 1)] === 1) last--
      if (first > at) pendingSpace = text.length > 0
      if (last > first) {
        if (pendingSpace) {
          text += ' '
          origin?.push(first)
        }
        text += singleSpaced(raw.slice(first, last).toLowerCase().replace(ASCII_QUOTES, '"'))
        if (origin) asciiOrigins(raw, first, last, origin)
        pendingSpace = last < end
      }
      at = end
      continue
    }
    const point = raw.codePointAt(at) as number
    let pieces = seen.get(point)
    if (!pieces) {
      pieces = codePointPieces(String.fromCodePoint(point))
      seen.set(point, pieces)
    }
    for (const piece of pieces) {
      if (piece === SPACE_PIECE) {
        pendingSpace = text.length > 0
        continue
      }
      if (pendingSpace) {
        text += ' '
        origin?.push(at)
        pendingSpace = false
      }
      text += piece
      if (origin) for (let i = 0; i < piece.length; i++) origin.push(at)
    }
    at += point > 0xffff ? 2 : 1
  }
  return { text, origin: origin ?? [] }
}

/** The origins of an ASCII stretch's text: each character's offset, and a space's the next one's. */
function asciiOrigins(raw: string, first: number, last: number, origin: number[]) {
  let space = false
  for (let at = first; at < last; at++) {
    if (ASCII_SPACE[raw.charCodeAt(at)] === 1) {
      space = true
      continue
    }
    if (space) origin.push(at)
    space = false
    origin.push(at)
  }
}

/** Marks whitespace among a code point's pieces: no mapped piece is a space. */
const SPACE_PIECE = ' '

/**
 * What one code point becomes: nothing (invisible), or the pieces of its NFKC form, lower-cased, each
 * whitespace (SPACE_PIECE) or mapped (quote marks to `"`, dashes to `-`). Each code point is
 * normalised alone, so a page's text maps back to it character by character.
 */
function codePointPieces(char: string): string[] {
  if (INVISIBLE.test(char)) return []
  const pieces: string[] = []
  for (const piece of char.normalize('NFKC').toLowerCase()) {
    pieces.push(SPACE.test(piece) ? SPACE_PIECE : QUOTE_MARKS.test(piece) ? '"' : DASHES.test(piece) ? '-' : piece)
  }
  return pieces
}

const ASCII_PIECES = Array.from({ length: 0x80 }, (_, code) => codePointPieces(String.fromCharCode(code)))

// What the ASCII characters become, from the same function: which are whitespace, and which quote
// marks other than `"` are rewritten to it.
// Code units, not code points: the first of a pair is enough to end an ASCII stretch.
const NON_ASCII = /[\u0080-\uffff]/g
const ASCII_SPACE = Uint8Array.from(ASCII_PIECES, (pieces) => (pieces[0] === SPACE_PIECE ? 1 : 0))
const ASCII_QUOTES = new RegExp(
  `[${ASCII_PIECES.flatMap((pieces, code) => (pieces[0] === '"' && code !== 0x22 ? [`\\x${code.toString(16).padStart(2, '0')}`] : [])).join('')}]`,
  'g',
)

/** A quote long enough to mean something: at least 12 characters and 3 words once normalised. */
export function isSubstantialQuote(quote: string): boolean {
  const text = quoteText(stripEnclosingQuotes(quote))
  return (
    text.length >= MIN_QUOTE_CHARACTERS &&
    text.split(' ').filter((word) => /[\p{L}\p{N}]/u.test(word)).length >= MIN_QUOTE_WORDS
  )
}

/**
 * Where `quote` occurs in `page`, as the page's own text (its original spacing, marks and case), or
 * undefined. Quote marks a model wraps around the whole quote, and a trailing "..." it adds, are not
 * part of the quote.
 */
export function locateQuote(quote: string, page: PreparedPage): string | undefined {
  return locateNeedle(quoteNeedle(quote), page)
}

/** A quote as it is looked for in pages: normalised once for any number of them. */
export function quoteNeedle(quote: string): string {
  return quoteText(stripEnclosingQuotes(unescapeFences(quote)))
}

/** locateQuote for a quote already made a needle (quoteNeedle). */
export function locateNeedle(needle: string, page: PreparedPage): string | undefined {
  if (needle.length < MIN_QUOTE_CHARACTERS) return undefined
  const index = page.text.indexOf(needle)
  if (index < 0) return undefined
  const start = page.origin[index] as number
  const lastOrigin = page.origin[index + needle.length - 1] as number
  const last = page.raw.codePointAt(lastOrigin) ?? 0
  return page.raw.slice(start, lastOrigin + (last > 0xffff ? 2 : 1))
}

export type PreparedPage = NormalizedText & { raw: string }

/** A page prepared once for many quotes: its rendered text, normalised. */
export function preparePage(text: string): PreparedPage {
  const raw = renderedText(text)
  return { ...normalizeForQuote(raw), raw }
}

/** Prompts show pages with "<" and ">" escaped (see llm/openai.ts): a quote of them may keep that. */
function unescapeFences(quote: string): string {
  return quote.replaceAll('&lt;', '<').replaceAll('&gt;', '>')
}

function stripEnclosingQuotes(quote: string): string {
  let text = quote.trim()
  for (;;) {
    const before = text
    text = text.replace(/^(?:\.\.\.|…)\s*/u, '').replace(/\s*(?:\.\.\.|…)$/u, '')
    const first = text.at(0) ?? ''
    const last = text.at(-1) ?? ''
    if (text.length >= 2 && QUOTE_MARKS.test(first) && QUOTE_MARKS.test(last)) text = text.slice(1, -1).trim()
    if (text === before) return text
  }
}
