// The word tokenizer every part shares: memory search, topic comparison, claim terms, the engine's
// ranking. Text in, words out; it knows nothing of what the words are for.

// A fixed locale so results do not depend on the host's default; ICU's word breaks (dictionaries for
// CJK and Thai included) do not vary by locale for the scripts facts are written in.
const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' })

const NON_ASCII = /[\u0080-\uffff]/

/**
 * Lower-cased, NFKC-normalized word tokens in text order. NFKC runs first so full-width Latin and
 * compatibility forms segment like their plain forms; segmentation rather than splitting on spaces
 * lets Chinese and Japanese text yield words.
 */
export function wordTokens(text: string): string[] {
  // NFKC leaves ASCII as it is; asking ICU to confirm that costs as much as the tokenizing.
  if (!NON_ASCII.test(text)) return asciiWordTokens(text.toLowerCase())
  const normal = text.normalize('NFKC').toLowerCase()
  return latinWordTokens(normal) ?? segmentedWordTokens(normal)
}

/** The segmenter's word-like segments: what every text gets, and what the fast path must equal. */
export function segmentedWordTokens(text: string): string[] {
  const tokens: string[] = []
  for (const { segment, isWordLike } of wordSegmenter.segment(text)) {
    if (isWordLike) tokens.push(segment)
  }
  return tokens
}

// The fast path reads Latin letters, digits and the punctuation of prose by the rules of Unicode's
// word segmentation (UAX #29) such text can meet; any other character is the segmenter's to read
// (other scripts, dictionaries, combining marks, emoji, spaces other than ASCII's).
// Code units, not code points: a surrogate is outside, so any astral character goes to the segmenter.
// biome-ignore lint/suspicious/noControlCharactersInRegex: every ASCII character is the fast path's
const OUTSIDE = /[^\u0000-\u007f\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f‘’“”–—]/
const LETTER = 'a-zA-Z\\u00c0-\\u00d6\\u00d8-\\u00f6\\u00f8-\\u024f'
/**
 * A word: letters, digits and underscores run together (WB5, WB8-WB10, WB13a, WB13b); ":" "." "'"
 * "‘" "’" join two letters (WB6, WB7: "u.s", "don't", "a:b") and "." "," ";" "'" "‘" "’" two digits
 * (WB11, WB12: "3.5", "1,000"). Everything else (spaces, dashes, other quotes, brackets) stands alone
 * and is no word; so is a lone "_".
 */
const WORD = new RegExp(`(?:[${LETTER}0-9_]|(?<=[${LETTER}])[:.'‘’](?=[${LETTER}])|(?<=[0-9])[.,;'‘’](?=[0-9]))+`, 'g')

/**
 * The segmenter's tokens for text of Latin letters, digits and the punctuation of prose; undefined
 * for text with any other character. ICU's word rules are those of UAX #29; the tests in
 * words.test.ts hold the two to the same answer, character by character and on random text.
 */
export function latinWordTokens(text: string): string[] | undefined {
  return OUTSIDE.test(text) ? undefined : asciiWordTokens(text)
}

/** latinWordTokens of text known to hold none of the segmenter's characters (ASCII, say). */
function asciiWordTokens(text: string): string[] {
  const words: string[] = text.match(WORD) ?? []
  return words.includes('_') ? words.filter((word) => word !== '_') : words
}
