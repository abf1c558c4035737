// Is a quote really on the page? A claim is shown only when its quote occurs in the text of a source
// it cites. The match forgives exactly what copying text tends to change and nothing more: runs of
// whitespace, the kind of quote mark and dash, letter case and Unicode compatibility forms (NFKC:
// "…" and "...", full-width letters). No fuzzy matching: a quote with one word changed is not found.
import { renderedText } from '#server/text/rendered-text.ts'

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
  for (let at = 0; at < raw.length; ) {
    // A run of ASCII letters, digits and punctuation is its own lower case: added at once.
    let end = at
    while (end < raw.length && PLAIN_ASCII[raw.charCodeAt(end)] === 1) end++
    if (end > at) {
      if (pendingSpace) {
        text += ' '
        origin?.push(at)
        pendingSpace = false
      }
      text += raw.slice(at, end).toLowerCase()
      if (origin) for (let i = at; i < end; i++) origin.push(i)
      at = end
      continue
    }
    const code = raw.charCodeAt(at)
    const char = code < 0x80 ? raw.charAt(at) : String.fromCodePoint(raw.codePointAt(at) as number)
    for (const piece of code < 0x80 ? (ASCII_PIECES[code] as string[]) : codePointPieces(char)) {
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
    at += char.length
  }
  return { text, origin: origin ?? [] }
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

// Pages are mostly ASCII: its code points' pieces are worked out once, by the same function, and
// those that are one character, their own lower case, mark the runs taken whole.
const ASCII_PIECES = Array.from({ length: 0x80 }, (_, code) => codePointPieces(String.fromCharCode(code)))
const PLAIN_ASCII = Uint8Array.from(ASCII_PIECES, (pieces, code) =>
  pieces.length === 1 && pieces[0] === String.fromCharCode(code).toLowerCase() && pieces[0] !== SPACE_PIECE ? 1 : 0,
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
