// The word tokenizer every part shares: memory search, topic comparison, claim terms, the engine's
// ranking. Text in, words out; it knows nothing of what the words are for.

// A fixed locale so results do not depend on the host's default; ICU's word breaks (dictionaries for
// CJK and Thai included) do not vary by locale for the scripts facts are written in.
const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' })

const NON_ASCII = /[\u0080-\u{10ffff}]/u

/**
 * Lower-cased, NFKC-normalized word tokens in text order. NFKC runs first so full-width Latin and
 * compatibility forms segment like their plain forms; segmentation rather than splitting on spaces
 * lets Chinese and Japanese text yield words.
 */
export function wordTokens(text: string): string[] {
  // NFKC leaves ASCII as it is; asking ICU to confirm that costs as much as the tokenizing.
  const normal = NON_ASCII.test(text) ? text.normalize('NFKC').toLowerCase() : text.toLowerCase()
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

// Word-break classes of Unicode's word segmentation (UAX #29) for the characters the fast path reads.
// Double quotes, dashes, spaces, brackets and the rest are OTHER: a segment of their own, never a word.
const OTHER = 0
const LETTER = 1
const DIGIT = 2
/** ":" (MidLetter): joins letters. */
const MID_LETTER = 3
/** "." "'" "‘" "’" (MidNumLet, Single_Quote): join letters, and join digits. */
const MID_NUM_LET = 4
/** "," ";" (MidNum): join digits. */
const MID_NUM = 5
/** "_" (ExtendNumLet): joins anything but punctuation. */
const UNDERSCORE = 6
/** Outside the fast path: the segmenter decides. */
const UNKNOWN = 7

const ASCII_CLASSES = new Uint8Array(128)
for (let code = 0; code < 128; code++) {
  const char = String.fromCharCode(code)
  ASCII_CLASSES[code] = /[a-zA-Z]/.test(char)
    ? LETTER
    : /[0-9]/.test(char)
      ? DIGIT
      : char === ':'
        ? MID_LETTER
        : char === '.' || char === "'"
          ? MID_NUM_LET
          : char === ',' || char === ';'
            ? MID_NUM
            : char === '_'
              ? UNDERSCORE
              : OTHER
}

function classOf(code: number): number {
  if (code < 128) return ASCII_CLASSES[code] as number
  // Latin-1 and Latin Extended-A and B letters (not the signs × and ÷); the quotes and dashes of prose.
  if (code >= 0xc0 && code <= 0x24f) return code === 0xd7 || code === 0xf7 ? OTHER : LETTER
  if (code === 0x2018 || code === 0x2019) return MID_NUM_LET
  if (code === 0x201c || code === 0x201d || code === 0x2013 || code === 0x2014) return OTHER
  return UNKNOWN
}

/**
 * The segmenter's tokens for text of Latin letters, digits and the punctuation of prose, found by
 * the rules of UAX #29 that such text can meet (WB5-WB13b); undefined for any other character, which
 * is the segmenter's to read (other scripts, dictionaries, combining marks, emoji). ICU's own word
 * rules are those; the property test in words.test.ts holds the two to the same answer.
 */
export function latinWordTokens(text: string): string[] | undefined {
  const classes = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) {
    const kind = classOf(text.charCodeAt(i))
    if (kind === UNKNOWN) return undefined
    classes[i] = kind
  }
  const tokens: string[] = []
  let start = 0
  for (let i = 1; i <= text.length; i++) {
    if (i < text.length && joined(classes, i)) continue
    // A segment of two or more characters was joined by a rule, and every such segment is a word
    // ("__" too); a single character is one when it is a letter or a digit.
    const kind = classes[start]
    if (i - start > 1 || kind === LETTER || kind === DIGIT) tokens.push(text.slice(start, i))
    start = i
  }
  return tokens
}

/** No break between characters i - 1 and i. */
function joined(classes: Uint8Array, i: number): boolean {
  const before = classes[i - 1]
  const here = classes[i]
  if (before === LETTER || before === DIGIT) {
    // WB5, WB8, WB9, WB10: letters and digits run together; WB13a: so does an underscore after them.
    if (here === LETTER || here === DIGIT || here === UNDERSCORE) return true
    // WB6: "don't", "u.s", "a:b"; WB12: "3.5", "1,000".
    if (before === LETTER && (here === MID_LETTER || here === MID_NUM_LET)) return classes[i + 1] === LETTER
    if (before === DIGIT && (here === MID_NUM || here === MID_NUM_LET)) return classes[i + 1] === DIGIT
    return false
  }
  // WB13a, WB13b.
  if (before === UNDERSCORE) return here === LETTER || here === DIGIT || here === UNDERSCORE
  // WB7 and WB11: the other side of WB6 and WB12.
  if (here === LETTER && (before === MID_LETTER || before === MID_NUM_LET)) return classes[i - 2] === LETTER
  if (here === DIGIT && (before === MID_NUM || before === MID_NUM_LET)) return classes[i - 2] === DIGIT
  return false
}
