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
  let text = ''
  const origin: number[] = []
  let pendingSpace = false
  let offset = 0
  for (const char of raw) {
    const at = offset
    offset += char.length
    if (INVISIBLE.test(char)) continue
    for (const piece of char.normalize('NFKC').toLowerCase()) {
      if (SPACE.test(piece)) {
        pendingSpace = text.length > 0
        continue
      }
      if (pendingSpace) {
        text += ' '
        origin.push(at)
        pendingSpace = false
      }
      const mapped = QUOTE_MARKS.test(piece) ? '"' : DASHES.test(piece) ? '-' : piece
      text += mapped
      for (let i = 0; i < mapped.length; i++) origin.push(at)
    }
  }
  return { text, origin }
}

/** A quote long enough to mean something: at least 12 characters and 3 words once normalised. */
export function isSubstantialQuote(quote: string): boolean {
  const { text } = normalizeForQuote(stripEnclosingQuotes(quote))
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
  const needle = normalizeForQuote(stripEnclosingQuotes(unescapeFences(quote))).text
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
