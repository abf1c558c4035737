// A topic's identity within an account: spellings that differ only in case, width, Unicode
// composition or spacing name the same topic, while different scripts and words stay distinct.
import { stripBidiControls } from '#server/text/bidi.ts'

/** `\s` with the `u` flag already covers U+3000 (ideographic space); it is listed so no one has to check. */
const WHITESPACE_RUN = /[\s\u3000]+/gu

/**
 * The stored key of a topic. NFKC folds full-width and compatibility forms (and composes
 * e + U+0301 into é); lower-casing after it can produce new compatibility sequences, hence the
 * second NFKC. Final sigma is folded to σ as Unicode case folding does, because `toLowerCase()`
 * turns a word-final Σ into ς, which would make "ΟΔΟΣ" and "οδοσ" two topics. No other full
 * case folding is applied (ß stays ß), so "straße" and "strasse" are different keys.
 */
export function topicKey(topic: string): string {
  const folded = topic.normalize('NFKC').toLowerCase().normalize('NFKC').replaceAll('ς', 'σ')
  return collapseWhitespace(folded)
}

/**
 * The topic as shown to people: case and compatibility characters kept, only composition and
 * spacing tidied, and bidirectional controls (which make it render reversed) removed.
 */
export function displayTopic(topic: string): string {
  return collapseWhitespace(stripBidiControls(topic).normalize('NFC'))
}

function collapseWhitespace(text: string): string {
  return text.replace(WHITESPACE_RUN, ' ').trim()
}
