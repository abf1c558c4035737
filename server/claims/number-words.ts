// Numbers written in words, as newsrooms write them, in digits: "thirty-eight miles" is 38 miles,
// "Fourteen batches" (a sentence opens with words, not digits) 14, "two hundred and fifty jobs" 250,
// "thirty million pounds" £30 million, "half a million" 500,000, "three-quarters of an hour" 0.75
// hours, "an hour and a half" 1.5 hours. figures.ts reads the digits as it reads any others.

/** 0-19 by their names; 20-90 by theirs. */
export const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
]
const TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']

/** Every word of a number, for figures.ts to mark those in names ("Formula One", "Catch Twenty-Two"). */
export const NUMBER_WORDS = [...ONES.slice(1), ...TENS]

const UNDER_HUNDRED = `(?:(?:${TENS.join('|')})(?:[- ](?:${ONES.slice(1, 10).join('|')}))?|${ONES.join('|')})`
const UNDER_THOUSAND = `(?:(?:a|${UNDER_HUNDRED}) hundred(?:(?: and)? ${UNDER_HUNDRED})?|${UNDER_HUNDRED})`
/**
 * A number in words: under a thousand, then a scale ("two hundred and fifty thousand", "thirty
 * million", "a dozen"). Not followed by a letter or a hyphen: "twenty-first" is an ordinal, "two-
 * thirds" a fraction, "Twenty_" a name figures.ts marked.
 */
const IN_WORDS = new RegExp(
  String.raw`\b(${UNDER_THOUSAND}|a|an)(?: (thousand)(?:,? (?:and )?(${UNDER_THOUSAND}))?| (million|billion|dozen))?\b(?![\p{L}\p{N}_-])`,
  'gu',
)

/**
 * A count joined by a hyphen to a measure of length, area, weight or volume ("an eleven-mile ride", "a
 * forty-hectare site"): in digits as "11-mile", which figures.ts reads as it reads "a 400-metre
 * wall". A length of time or a count so joined names a kind more often than it measures ("a
 * four-day week", "a two-day strike", "a three-bedroom house"), so those stay words.
 */
const HYPHENED_MEASURE = new RegExp(
  String.raw`\b(${UNDER_HUNDRED})-(?=(?:miles?|kilomet(?:re|er)s?|met(?:re|er)s?|foot|feet|yards?|acres?|hectares?|tonnes?|tons?|lit(?:re|er)s?|gallons?)\b)`,
  'gu',
)

/** A count under a hundred said alone is often no count ("one of the", "two of them", "in one go"). */
const BARE_COUNT_AFTER =
  /^ (?!(?:of|and|or|to|in|on|at|by|for|from|the|a|an|as|is|was|were|are|than|with|per|more|less|fewer|times|percent|per cent)\b)[a-z]/u
/**
 * "Seven of its cheeses", "two of the councillors", "seven of Brennock's cheeses": a count of what
 * follows, as "85 of its workers".
 */
const PARTITIVE_AFTER = /^ of (?:the|its|their|his|her|our|your|[a-z]+['’]s)(?: [a-z]+['’]s)? [a-z]/u
/** Nor "the first six months" (the first half), which dates a period rather than counting it. */
const PERIOD_BEFORE = /\b(?:first|last|past|next|previous|coming|recent) $/u

/** Halves and quarters of a unit: "half an hour", "a quarter of a mile", "three-quarters of an hour". */
const PART_OF_UNIT =
  /\b(half|(?:a|one) quarter of|quarter of|three[- ]quarters of) (?:a|an) (hour|day|week|month|year|mile|kilometre|kilometer|million|billion)\b/gu
/** "Two point four million visits": a decimal in words, with its scale. */
const DIGIT_WORDS = ONES.slice(0, 10).join('|')
const POINT = new RegExp(
  String.raw`\b(${UNDER_HUNDRED}) point ((?:${DIGIT_WORDS})(?: (?:${DIGIT_WORDS}))*) (million|billion)\b`,
  'gu',
)
/** "The half-million-euro fund", "a quarter-million people". */
const PART_MILLION = /\b(half|quarter)[- ](million|billion)\b/gu
/**
 * "An hour and a half", "two and a half years", "one and a half million", "fourteen and a half
 * million", "five and a half per cent".
 */
const AND_A_HALF_AFTER = new RegExp(
  String.raw`\b(a|an|${UNDER_HUNDRED}|\d{1,3}) (hour|day|week|month|year|mile|million|billion)s? and a half\b`,
  'gu',
)
const AND_A_HALF_BEFORE = new RegExp(
  String.raw`\b(${UNDER_HUNDRED}|\d{1,3}) and a half (hours?|days?|weeks?|months?|years?|miles?|million|billion|per ?cent|percentage points?)\b`,
  'gu',
)

function wordsValue(words: string): number {
  let total = 0
  for (const part of words.split(/ and | /u)) {
    if (part === 'hundred') total *= 100
    else if (part === 'a' || part === 'an') total += 1
    else {
      const [tens, ones] = part.split('-')
      const tensAt = TENS.indexOf(tens as string)
      total += tensAt >= 0 ? (tensAt + 2) * 10 + (ones ? ONES.indexOf(ones) : 0) : ONES.indexOf(part)
    }
  }
  return total
}

/** "0.5 hours", "1.5 million". */
function plural(unit: string): string {
  return unit.endsWith('illion') ? unit : `${unit}s`
}

function small(words: string): number {
  return /^\d/u.test(words) ? Number(words) : wordsValue(words)
}

/** Any word a number in words needs: most sentences have none, and are left at this one look. */
const ANY_NUMBER_WORD = new RegExp(
  String.raw`\b(?:${[...NUMBER_WORDS, 'hundred', 'thousand', 'million', 'billion', 'dozen', 'half', 'quarter'].join('|')})`,
  'u',
)

/** `text` (lower case) with its numbers in words written in digits. */
export function numbersInDigits(text: string): string {
  if (!ANY_NUMBER_WORD.test(text)) return text
  return text
    .replace(POINT, (_, whole: string, digits: string, scale: string) => {
      return `${wordsValue(whole)}.${digits
        .split(' ')
        .map((digit) => ONES.indexOf(digit))
        .join('')} ${scale}`
    })
    .replace(PART_OF_UNIT, (_, part: string, unit: string) => {
      const share = part === 'half' ? 0.5 : part.startsWith('three') ? 0.75 : 0.25
      return `${share} ${plural(unit)}`
    })
    .replace(AND_A_HALF_AFTER, (_, count: string, unit: string) => `${small(count) + 0.5} ${plural(unit)}`)
    .replace(AND_A_HALF_BEFORE, (_, count: string, unit: string) => `${small(count) + 0.5} ${unit}`)
    .replace(PART_MILLION, (_, part: string, scale: string) => `${part === 'half' ? 0.5 : 0.25} ${scale}`)
    .replace(HYPHENED_MEASURE, (written: string, words: string) => {
      const value = wordsValue(words)
      return value >= 2 ? `${value}-` : written
    })
    .replace(IN_WORDS, (...match: Array<string | undefined>) => {
      const [written = '', words = '', thousand, hundreds, other] = match
      const [at, whole] = match.slice(-2) as unknown as [number, string]
      const scale = thousand ?? other
      if ((words === 'a' || words === 'an') && !scale) return written
      const value = wordsValue(words)
      if (scale === 'dozen') return String(value * 12)
      // "Two thousand one hundred", "three thousand and forty": the thousands and what follows them.
      if (scale === 'thousand') return (value * 1000 + (hundreds ? wordsValue(hundreds) : 0)).toLocaleString('en-US')
      if (scale) return `${value} ${scale}`
      // A count under thirteen said alone: only before what it counts, never "one".
      if (value >= 13 || /hundred/u.test(words)) return String(value)
      if (value < 2) return written
      const after = whole.slice(at + written.length)
      const counts = BARE_COUNT_AFTER.test(after) || PARTITIVE_AFTER.test(after)
      if (!counts || PERIOD_BEFORE.test(whole.slice(0, at))) return written
      return String(value)
    })
}
