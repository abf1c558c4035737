// The figures and dates a claim states, normalised so that two wordings of one figure compare equal
// ("$80/kWh", "80 dollars per kWh", "USD 80 per kilowatt-hour") and two figures of one kind with
// different values do not ("$90/kWh"). Dates come from chrono-node (absolute dates only, at the
// precision the text gives) plus quarters, halves and bare years, which it does not read.
import * as chrono from 'chrono-node'
import { stemmer } from 'stemmer'
import { NUMBER_WORDS, numbersInDigits, ONES } from '#server/claims/number-words.ts'
import { classifiedNounPhrase } from '#server/text/english.ts'
import { MONTH_NAMES } from '#server/text/names.ts'

/** A number with its unit: "usd/kwh" 80, "%" 18, "gw" 3.5, "job" 1200, "" for a bare count. */
export type Figure = {
  value: number
  unit: string
  /**
   * A word before it that says the value is rough or a bound ("about 140", "just over £21m", "nearly
   * four in five"): it then stands for a range, not a point (figuresAgree).
   */
  bound?: Bound
  /**
   * The value is what the quantity was before ("£79m, up from £68m", "22,500 rather than the
   * 24,000 first planned"): the sentence states the other as now (figuresAgree).
   */
  earlier?: true
}

type Bound = 'about' | 'over' | 'under'

/** "2026", "2026-03", "2026-03-04", "2026-Q3", "2026-H1" or "2026-S1" (a season: spring, summer, autumn, winter). */
export type DateMention = string

export type Statements = { figures: Figure[]; dates: DateMention[] }

const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`
const NUMBER_AT = new RegExp(String.raw`(?<![\p{L}\p{N}.,])(-\s?)?(${NUMBER})(?![\p{N}])`, 'gu')

const CURRENCY_BEFORE: Array<[RegExp, string]> = [
  [/(?:us\$|usd|\$)\s?$/u, 'usd'],
  [/(?:€|eur)\s?$/u, 'eur'],
  [/(?:£|gbp)\s?$/u, 'gbp'],
  [/(?:¥|jpy)\s?$/u, 'jpy'],
  [/(?:cny|rmb)\s?$/u, 'cny'],
  [/(?:₹|inr)\s?$/u, 'inr'],
]

const SCALES: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  mln: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
  t: 1e12,
  tn: 1e12,
  trillion: 1e12,
}
/** Single letters are scales only after a currency ("$5m"); alone, "5 m" is metres and "5 t" tonnes. */
const LETTER_SCALES = new Set(['k', 'm', 'b', 't'])
/**
 * A plural noun next ("visits", "people"), not a unit's ("metres", "tonnes"), nor a word that only
 * ends in "s" ("radius", "class").
 */
const PLURAL_AFTER =
  /^\s(?!(?:metres|meters|miles|tonnes|tons|kilometres|litres|hours|minutes|years|days|weeks|months)\b)(?:[a-z]+[a-hj-rtvwxyz]s|people)\b/u

const UNIT_ALIASES: Record<string, string> = {
  '%': '%',
  percent: '%',
  'per cent': '%',
  pct: '%',
  'percentage point': 'pp',
  'percentage points': 'pp',
  pp: 'pp',
  ppt: 'pp',
  dollar: 'usd',
  dollars: 'usd',
  'us dollars': 'usd',
  euro: 'eur',
  euros: 'eur',
  pound: 'gbp',
  pounds: 'gbp',
  yen: 'jpy',
  yuan: 'cny',
  renminbi: 'cny',
  rupee: 'inr',
  rupees: 'inr',
  'kilowatt-hour': 'kwh',
  'kilowatt-hours': 'kwh',
  'megawatt-hour': 'mwh',
  'megawatt-hours': 'mwh',
  'gigawatt-hour': 'gwh',
  'gigawatt-hours': 'gwh',
  kilowatt: 'kw',
  kilowatts: 'kw',
  megawatt: 'mw',
  megawatts: 'mw',
  gigawatt: 'gw',
  gigawatts: 'gw',
  tonne: 't',
  tonnes: 't',
  ton: 't',
  tons: 't',
  kilotonne: 'kt',
  kilotonnes: 'kt',
  // Tonnes, thousands and millions of tonnes per annum, as industry and its trade press write them
  // ("a 240ktpa plant", "5 mtpa of LNG"): a rate in time is the quantity it measures.
  tpa: 't',
  ktpa: 'kt',
  mtpa: 'mt',
  // Loudness as licences and newsrooms write it: "65 dB LAeq", "70dB", "70 decibels".
  decibel: 'db',
  decibels: 'db',
  kilogram: 'kg',
  kilograms: 'kg',
  litre: 'l',
  litres: 'l',
  liter: 'l',
  liters: 'l',
  kilolitre: 'kl',
  kilolitres: 'kl',
  megalitre: 'megalitre',
  megalitres: 'megalitre',
  megaliter: 'megalitre',
  megaliters: 'megalitre',
  gigalitre: 'gl',
  gigalitres: 'gl',
  gigaliter: 'gl',
  gigaliters: 'gl',
  'cubic metre': 'm3',
  'cubic metres': 'm3',
  'cubic meter': 'm3',
  'cubic meters': 'm3',
  kilometre: 'km',
  kilometres: 'km',
  kilometer: 'km',
  kilometers: 'km',
  mile: 'mi',
  miles: 'mi',
  year: 'year',
  years: 'year',
  yr: 'year',
  yrs: 'year',
  month: 'month',
  months: 'month',
  week: 'week',
  weeks: 'week',
  day: 'day',
  days: 'day',
  hour: 'hour',
  hours: 'hour',
  minute: 'min',
  minutes: 'min',
  min: 'min',
  mins: 'min',
}
const SHORT_UNITS = new Set([
  'wh',
  'kwh',
  'mwh',
  'gwh',
  'twh',
  'w',
  'kw',
  'mw',
  'gw',
  'tw',
  'kg',
  'g',
  't',
  'kt',
  'mt',
  'km',
  'm',
  'm3',
  'mi',
  'lb',
  'lbs',
  'l',
  'ml',
  'kl',
  'gl',
  'db',
])

/**
 * A measure in one unit of its kind, so that one quantity written at another scale compares equal
 * ("3.1 gigalitres", "3,100 megalitres", "3.1 billion litres", "3.1 million cubic metres"; "40kt",
 * "40,000 tonnes"; "1.2 GWh", "1,200 MWh"). Metric prefixes only: a conversion between systems
 * (miles, pounds) rounds, and a rounded figure is no restatement to read.
 */
const IN_BASE_UNIT: Record<string, [string, number]> = {
  wh: ['wh', 1],
  kwh: ['wh', 1e3],
  mwh: ['wh', 1e6],
  gwh: ['wh', 1e9],
  twh: ['wh', 1e12],
  w: ['w', 1],
  kw: ['w', 1e3],
  mw: ['w', 1e6],
  gw: ['w', 1e9],
  tw: ['w', 1e12],
  g: ['g', 1],
  kg: ['g', 1e3],
  t: ['g', 1e6],
  kt: ['g', 1e9],
  mt: ['g', 1e12],
  m: ['m', 1],
  km: ['m', 1e3],
  ml: ['l', 1e-3],
  l: ['l', 1],
  kl: ['l', 1e3],
  m3: ['l', 1e3],
  megalitre: ['l', 1e6],
  gl: ['l', 1e9],
  // A length of time in minutes: "three-quarters of an hour" is "45 minutes", "two days" "48 hours".
  min: ['min', 1],
  hour: ['min', 60],
  day: ['min', 1440],
  week: ['min', 10_080],
}
// A unit joined to its number by a hyphen is its unit too ("a 22-year life", "a 400-megawatt plant").
const UNIT_PHRASE = new RegExp(
  String.raw`^[\s-]?(${[...Object.keys(UNIT_ALIASES), ...SHORT_UNITS]
    .sort((a, b) => b.length - a.length)
    .map((unit) => unit.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('|')})(?![\p{L}\p{N}])`,
  'u',
)
/**
 * "Per person", "/kWh", "a head", "each resident": what a figure is a rate of. "Each" alone is each
 * one of those it is said of ("128 litres each a day"): a rate per person; "six sailings each way" is
 * six in each direction, not per person.
 */
const PER_UNIT =
  /^\s?(?:(?:\/|per\s|(?:a|an|each|every)\s(?=(?:head|person|capita|resident|household)\b))\s?([\p{L}-]+)|each\b(?!\s(?:of|day|week|month|year|hour|way|direction|side)\b))/u
/**
 * A rate in time is the quantity it measures: newsrooms write "40,000 tonnes a year", "32kt per
 * annum" and "an annual 40kt" of one output, and "per year" is read where "a year" is not.
 */
const TIME_DIVISORS = new Set(['year', 'annum', 'yr', 'month', 'week', 'day', 'd', 'hour', 'h', 'hr'])
/** One person, however a rate names them. */
const PERSON_DIVISORS = new Set(['head', 'person', 'capita', 'resident', 'people'])
const NEXT_WORD = /^[\s-]([\p{L}][\p{L}-]{2,})/u
const PARTITIVE = /^ of (?:the|its|their|his|her|our|your|[\p{L}]+['’]s)(?: [\p{L}]+['’]s)?(?= [\p{L}])/u
const TIME_UNITS = new Set(['min', 'hour', 'day', 'week', 'month', 'year'])
const RELATES_TIMES = /^,?\s(?:after|ago|later|earlier|before|on from|into|since)\b/u
/** Words that say how a count is held, not what it counts. */
const COUNT_MODIFIERS = new Set(['strong', 'odd', 'plus'])
/**
 * Comparatives before a counted noun compare the things with those they replace ("72 larger
 * turbines rather than the smaller machines it first chose"): they count the noun after them.
 */
const COMPARATIVES = new Set(
  'larger bigger smaller newer older cheaper costlier heavier lighter faster slower longer shorter wider narrower taller'.split(
    ' ',
  ),
)
const SCALE_WORD = new RegExp(String.raw`^\s?(${Object.keys(SCALES).join('|')})(?![\p{L}\p{N}])`, 'u')

// Words after a number that are not what it counts.
const NOT_UNITS = new Set(
  'and or to of in on at by for from the a an as is was were are be been than rather instead not with per about over under nearly almost around more less fewer among between across against after before into through during since until within without while when where which who that this these those its their his her it they first originally initially previously now still already only just then once have has had will would can could may might must should do does did'.split(
    ' ',
  ),
)
/** Words before a noun that say which of its kind are counted, not what kind. */
const QUALIFIERS = new Set(
  'new extra additional further other existing full-time part-time permanent temporary current former remaining'.split(
    ' ',
  ),
)
const MONTHS: readonly string[] = MONTH_NAMES
const MONTH_WORDS = MONTHS.join('|')
/**
 * When a thing was said, told on before "that" ("informed the council on 7 October that") or of what
 * was told before ("announced it in January"), and the month a count runs since ("2,460 complaints
 * since January"): $1 is the date. Not a day something began ("shut since 28 September"), nor a
 * thing revealed ("revealed the attack on 3 March"), which is that thing's date.
 */
const SAID_WHEN = new RegExp(
  String.raw`\b(?:(?:announc|said|says|told|tells|inform|confirm|wrote|report|warn|notif)[\p{L}]*(?: (?!on\b|in\b|last\b)[\p{L}'’-]+){0,4} (?:on|in|last|earlier in) ((?:\d{1,2} )?(?:${MONTH_WORDS})(?: \d{1,2}(?!\d))?(?:,? \d{4})?)(?=,? that\b)|(?:announc|said|told|confirm|report)[\p{L}]* it (?:on|in|last) ((?:\d{1,2} )?(?:${MONTH_WORDS})(?:,? \d{4})?)|since ((?:${MONTH_WORDS})(?: \d{4})?))\b`,
  'gu',
)

const QUARTER =
  /\b(?:q([1-4])|(first|second|third|fourth|final|last|1st|2nd|3rd|4th) quarter)(?: of)?,? ((?:19|20)\d{2})\b/gu
const MONTHS_QUARTER =
  /\b(jan|apr|jul|oct)[a-z]*(?:[- ](?:to|through|until)[- ]|[-/])(?:mar|jun|sep|dec)[a-z]* quarter(?: of)?,? ((?:19|20)\d{2})\b/gu
const HALF = /\b(?:h([12])|(first|second|latter|back) half)(?: of)?,? ((?:19|20)\d{2})\b/gu
/**
 * "The spring of 2029", "summer 2027": a season of a year, as near a date as a quarter is. ("Fall"
 * is left to the verb.)
 */
const SEASON_OF_YEAR = /\b(spring|summer|autumn|winter)(?: of)?,? ((?:19|20)\d{2})\b/gu
const SEASONS = ['spring', 'summer', 'autumn', 'winter']
const WRITTEN_YEAR = /(?<!\d)(?:1[6-9]|20|21)\d{2}(?!\d)/u
// WRITTEN_YEAR without its lookarounds: whatever WRITTEN_YEAR finds in a part of a text, this finds in
// the whole of it. A text it finds nothing in has no date chrono could return that writtenDates keeps.
const YEAR_DIGITS = /(?:1[6-9]|20|21)\d{2}/u
const CHRONO_REFERENCE = new Date(Date.UTC(2000, 0, 1))
const ORDINAL: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  '1st': 1,
  '2nd': 2,
  '3rd': 3,
  '4th': 4,
  final: 4,
  last: 4,
}

/** The counts newsrooms write in words as often as in digits, zero to twelve. */
const COUNT_WORDS = ONES.slice(0, 13)

/**
 * A number word written with a capital after a capitalised word is part of a name ("League Two",
 * "Formula One", "Apollo Eleven"), no count: it is marked so that SMALL_COUNT does not read it. One
 * before another capitalised word is a title-case headline's count ("Council Adds Five New Stops").
 */
const NAMED_NUMBER = new RegExp(
  String.raw`(?<=\b\p{Lu}[\p{L}'’-]*\s)(?:${NUMBER_WORDS.map((word) => word[0]?.toUpperCase() + word.slice(1)).join(
    '|',
  )})\b(?!\s\p{Lu})`,
  'gu',
)

/**
 * "Ml" and "ML" after a number are megalitres; in lower case, "ml" is millilitres. Not after a year:
 * "in 2024 ML spending rose" is machine learning's.
 */
const MEGALITRES = /(?<=\d\s?)(?<!(?:^|\D)(?:19|20)\d\d\s?)M[lL](?![\p{L}])/gu
const SEASON = /(?<![\d,.])((?:19|20)\d{2})[-/](\d{2})(?![\d,.%])/gu
const SMALL_NUMBER = String.raw`\d{1,3}|${COUNT_WORDS.slice(1).join('|')}`
const PROPORTION = new RegExp(
  String.raw`(?<![\d,.])\b(${SMALL_NUMBER}) (?:in|out of)(?: every)? (${SMALL_NUMBER})\b(?![,.]?\d)`,
  'gu',
)
/** A time of day, in minutes after midnight. */
const CLOCK_UNIT = 'clock'
const CLOCK_WORD = /\d(?:\s?[ap]\.?m\b|:\d\d)|midnight|noon|midday/u
const TIME_OF_DAY =
  /(?<![\d.,:])\b(?:(\d{1,2})(?:[:.]([0-5]\d))?\s?([ap])\.?m\.?(?![\p{L}])|([01]?\d|2[0-3]):([0-5]\d)(?![\d:])|(midnight|noon|midday)\b)/gu

/** The unit of a proportion's share (0.6 for "three in five"). */
const PROPORTION_UNIT = 'share'
/**
 * "Half of", "half the", "a third of", "two-thirds of", "three quarters of": a share. Not a part of
 * a period ("in the first half of the year", "the final quarter of the season").
 */
const SHARE_IN_WORDS =
  /(?<!\b(?:first|second|third|fourth|last|latter|other|next|past|final) )\b(?:(a|one|two|three|four)[- ])?(half|thirds?|quarters?|fifths?)(?= of\b(?! an? \b)| the\b)(?!(?: of)?(?: [\p{L}'’]+){0,3} [\d£$€])/gu
const FRACTIONS: Record<string, number> = { half: 2, third: 3, quarter: 4, fifth: 5 }
const SHARE_WORD = /half|third|quarter|fifth/u

function countValue(written: string): number {
  const index = COUNT_WORDS.indexOf(written)
  return index >= 0 ? index : Number(written)
}

const MONTH_NAME = String.raw`(?:january|february|march|april|may|june|july|august|september|october|november|december|jan\.?|feb\.?|mar\.?|apr\.?|jun\.?|jul\.?|aug\.?|sept?\.?|oct\.?|nov\.?|dec\.?)`
/** A cheap look for what DAY_PAIR and MONTH_DAY_PAIR need: two numbers joined. */
const DAY_PAIR_WORD = /\d(?:st|nd|rd|th)?\s?(?:and|to|-|&)\s?\d/u
const DAY_PAIR = new RegExp(
  String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s?(?:and|to|-|&)\s?(\d{1,2})(?:st|nd|rd|th)?\s(${MONTH_NAME})(?![\p{L}_])((?:,)?\s(?:19|20)\d{2}\b)?`,
  'gu',
)
const MONTH_DAY_PAIR = new RegExp(
  String.raw`\b(${MONTH_NAME})\s(\d{1,2})(?:st|nd|rd|th)?\s?(?:and|to|-|&)\s?(\d{1,2})(?:st|nd|rd|th)?\b((?:,)?\s(?:19|20)\d{2}\b)?`,
  'gu',
)

const FULL_MONTHS = MONTHS.join('|')
const DAY_AND_MONTH = new RegExp(
  String.raw`\b(?:([12]?\d|3[01])(?:st|nd|rd|th)?\s(${FULL_MONTHS})|(${FULL_MONTHS})\s([12]?\d|3[01])(?:st|nd|rd|th)?)\b(?![\s,]*\d{3,4})(?![\p{L}\d])`,
  'gu',
)

/** The year of a date that writes none ("in September"). */
const YEARLESS = 'XXXX'

export function isYearless(date: DateMention): boolean {
  return date.startsWith(YEARLESS)
}
const YEARLESS_MONTH = new RegExp(
  // ("mid-February" as newsrooms hyphenate it.)
  String.raw`(\b(?:(?:in|into|from|by|until|till|to|since|before|after|of|on|next|last|this|early|late|mid|end of)\s|mid-)(?:(?:a|an|the)\s)?(?:\p{L}+day,?\s)?|` +
    // or after a weekday and a comma, as newsrooms write a date ("is now Tuesday, Sept. 8")
    String.raw`\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday),\s)` +
    // ("On the 21st of May": a day written as an ordinal may take "of".)
    String.raw`(?:(\d{1,2})(?:(?:st|nd|rd|th)(?:\sof)?)?\s)?` +
    // A month's full name, or its abbreviation with a point or a day ("Sept. 8", "Aug 24"): "to mar
    // the view" names no month.
    String.raw`(?:(january|february|march|april|may|june|july|august|september|october|november|december)\b|` +
    String.raw`(jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)(?:\.|(?=\s\d)))` +
    String.raw`(?:\s(\d{1,2})(?:st|nd|rd|th)?\b)?(?![\s,]*\d{3,4})`,
  'gu',
)

/** Words before a number that make it rough or a bound, as English writes them ("some 4,870", "close to 90"). */
const BOUND_BEFORE =
  /\b(?:(about|around|roughly|approximately|some|circa|an estimated|close to)|(more than|over|above|just over|upwards of|in excess of|at least|north of)|(nearly|almost|just under|under|fewer than|less than|up to|at most|below|not quite))\s+(?:[$£€]\s?)?$/u

/** The bound the words before `index` put on the number there, if any. */
function boundAt(text: string, index: number): Bound | undefined {
  const match = BOUND_BEFORE.exec(text.slice(Math.max(0, index - 20), index))
  if (!match) return undefined
  return match[1] ? 'about' : match[2] ? 'over' : 'under'
}

/** `figure`, with the bound the text before it puts on it. */
function bounded(figure: Figure, text: string, index: number): Figure {
  const bound = boundAt(text, index)
  return bound ? { ...figure, bound } : figure
}

/** Every figure and date a text states, each once, in a stable order. */
export function extractStatements(text: string): Statements {
  let rest = text
    .normalize('NFKC')
    .replace(NAMED_NUMBER, '$&_')
    // "May" is the month; "may" in lower case ("those aged 18 to 24 may apply") is a verb.
    .replace(/\bmay\b/gu, 'may_')
    .replace(MEGALITRES, 'megalitres')
    .toLowerCase()
    .replace(/[‐‑‒–—―−]/gu, '-')
  const dates = new Set<DateMention>()
  const mask = (start: number, end: number) => {
    rest = rest.slice(0, start) + ' '.repeat(end - start) + rest.slice(end)
  }
  // When something was said, or since when it is counted, is no date of the thing it tells
  // ("informed the council on 7 October that ...", "announced it in January", "complaints since
  // January"): not read, so that it is not taken for the thing's date.
  for (const match of [...rest.matchAll(SAID_WHEN)]) {
    const date = (match[1] ?? match[2] ?? match[3]) as string
    const at = match.index + match[0].lastIndexOf(date)
    mask(at, at + date.length)
  }

  // A period named whole is a date, taken out of the text so that nothing reads it twice.
  const period = (pattern: RegExp, toDate: (match: RegExpExecArray) => DateMention | undefined) => {
    for (const match of [...rest.matchAll(pattern)]) {
      const date = toDate(match)
      if (date === undefined) continue
      dates.add(date)
      mask(match.index, match.index + match[0].length)
    }
  }
  period(QUARTER, (match) => `${match[3]}-Q${match[1] ? Number(match[1]) : ORDINAL[match[2] as string]}`)
  // "The April-to-June quarter of 2028": a quarter named by its months.
  period(MONTHS_QUARTER, (match) => {
    const first = MONTHS.findIndex((name) => name.startsWith(match[1] as string))
    return `${match[2]}-Q${Math.floor(first / 3) + 1}`
  })
  period(HALF, (match) => `${match[3]}-H${match[1] ?? (match[2] === 'first' ? 1 : 2)}`)
  period(SEASON_OF_YEAR, (match) => `${match[2]}-S${SEASONS.indexOf(match[1] as string) + 1}`)
  // A season or a financial year ("the 2028-29 season") is dated by the year it starts in.
  period(SEASON, (match) => {
    const first = Number(match[1])
    return (first + 1) % 100 === Number(match[2]) ? String(first) : undefined
  })
  // Two days of one month ("on 21 and 22 October 2026", "Oct. 21-22"): each a date.
  if (DAY_PAIR_WORD.test(rest))
    rest = rest
      .replace(DAY_PAIR, (_, first: string, second: string, month: string, year = '') => {
        return `${first} ${month}${year} and ${second} ${month}${year}`
      })
      .replace(MONTH_DAY_PAIR, (_, month: string, first: string, second: string, year = '') => {
        return `${month} ${first}${year} and ${month} ${second}${year}`
      })
  for (const parsed of writtenDates(rest)) {
    // A range ("moved from March 2028 to December 2028", "between June and August 2027") states both
    // of its ends.
    for (const end of parsed.end ? [parsed.start, parsed.end] : [parsed.start]) dates.add(writtenDate(end))
    mask(parsed.index, parsed.index + parsed.text.length)
  }

  // A month with no year, after a word of time ("moved to September", "from June", "on Monday, Aug.
  // 24"): the year is the story's, unknown here, so it agrees with any date of its month or wider.
  for (const match of [...rest.matchAll(YEARLESS_MONTH)]) {
    const month = MONTHS.findIndex((name) => name.startsWith((match[3] ?? match[4]) as string)) + 1
    const written = match[2] ?? match[5]
    const day = written ? `-${written.padStart(2, '0')}` : ''
    dates.add(`${YEARLESS}-${String(month).padStart(2, '0')}${day}`)
    mask(match.index + (match[1] as string).length, match.index + match[0].length)
  }
  // A day and a month's full name are a date wherever they stand ("the earliest it could begin was 1
  // September"): no word of time is needed, as it is for a month alone ("to march", "a may").
  period(DAY_AND_MONTH, (match) => {
    const name = (match[2] ?? match[3]) as string
    const month = MONTHS.findIndex((each) => each.startsWith(name)) + 1
    const day = (match[1] ?? match[4]) as string
    return `${YEARLESS}-${String(month).padStart(2, '0')}-${day.padStart(2, '0')}`
  })

  // Figures read before the numbers in words: times of day and proportions (shares after them).
  const proportions: Figure[] = []
  // A time of day ("11pm", "23:00", "9.30am", "midnight"): minutes after midnight, however written.
  for (const match of CLOCK_WORD.test(rest) ? [...rest.matchAll(TIME_OF_DAY)] : []) {
    const [, hour, minute, half, hours, minutes, noon] = match
    const value = noon
      ? noon === 'midnight'
        ? 0
        : 720
      : hours
        ? Number(hours) * 60 + Number(minutes)
        : (Number(hour) % 12) * 60 + Number(minute ?? 0) + (half === 'p' ? 720 : 0)
    proportions.push({ value, unit: CLOCK_UNIT })
    mask(match.index, match.index + match[0].length)
  }
  // A proportion ("three in five parents", "one out of four"): a share, not two counts.
  for (const match of [...rest.matchAll(PROPORTION)]) {
    const [part, whole] = [countValue(match[1] as string), countValue(match[2] as string)]
    if (whole > 0 && part <= whole)
      proportions.push(
        bounded({ value: Number((part / whole).toPrecision(4)), unit: PROPORTION_UNIT }, rest, match.index),
      )
    mask(match.index, match.index + match[0].length)
  }
  // Numbers in words ("thirty-eight miles", "two thousand jobs", "five stops"): in digits, written
  // with a thousands comma, so "two thousand" is a count, not the year 2000.
  rest = numbersInDigits(rest)
  // A share in words ("half of the staff", "two-thirds of members"): a proportion as above. Not
  // one of a figure ("a quarter of the project's £142m", "half the 310-strong workforce"): that
  // relates another quantity to it, which the sentence need not give.
  for (const match of SHARE_WORD.test(rest) ? [...rest.matchAll(SHARE_IN_WORDS)] : []) {
    const part = match[1] && match[1] !== 'a' ? countValue(match[1]) : 1
    const whole = FRACTIONS[(match[2] as string).replace(/s$/u, '')] as number
    if (part < whole)
      proportions.push(
        bounded({ value: Number((part / whole).toPrecision(4)), unit: PROPORTION_UNIT }, rest, match.index),
      )
    mask(match.index, match.index + match[0].length)
  }
  const figures = new Map<string, Figure>(proportions.map((figure) => [figureKey(figure), figure]))
  // The figures a bare number may answer: the last before it, and the last that is no length of time.
  let counted: Figure | undefined
  let quantity: Figure | undefined
  for (const match of [...rest.matchAll(NUMBER_AT)]) {
    // "Before the 400th home is occupied", "its 150th anniversary": a rank, not a quantity of anything.
    if (ORDINAL_SUFFIX.test(rest.slice(match.index + match[0].length))) continue
    let figure = readFigure(rest, match, counted !== undefined)
    if (figure === 'year') dates.add(match[2] as string)
    else if (figure) {
      // "Capped the crowd at 18,000 people a day, well short of the 25,000 it had asked for", "up
      // from 21,000": a bare number that answers a figure before it counts what that one counts. A
      // length of time between them says over what time ("85 posts over two years, down from the
      // 120"): the number answers the quantity that changed, unless only lengths of time came before.
      const answered = quantity ?? counted
      if (figure.unit === '' && answered && ELLIPSIS_BEFORE.test(rest.slice(0, match.index)))
        figure = { ...figure, unit: answered.unit }
      if (figure.unit !== '') counted = figure
      if (figure.unit !== '' && !TIME_UNITS.has(figure.unit)) quantity = figure
      figure = bounded(figure, rest, match.index)
      if (EARLIER_BEFORE.test(rest.slice(0, match.index))) figure = { ...figure, earlier: true }
      if (!figures.has(figureKey(figure))) figures.set(figureKey(figure), figure)
    }
  }
  return { figures: [...figures.values()], dates: [...dates].sort() }
}

/** A date chrono read, to the month or the day where the text gives them ("2028", "2028-03", "2028-03-31"). */
function writtenDate(component: chrono.ParsedComponents): DateMention {
  const year = String(component.get('year')).padStart(4, '0')
  const month = component.isCertain('month') ? `-${String(component.get('month')).padStart(2, '0')}` : ''
  const day = month && component.isCertain('day') ? `-${String(component.get('day')).padStart(2, '0')}` : ''
  return `${year}${month}${day}`
}

/**
 * The dates chrono finds in a text that write out their year: "now" and "last week" are certain only
 * relative to today. Most texts (a claim, a quote: four in five in the quality benchmark) write no
 * year, and chrono is most of extractStatements' time (a sentence without a year took 22-25 µs with
 * it and 4-6 without, measured one after the other), so those are not parsed at all.
 */
export function writtenDates(text: string): chrono.ParsedResult[] {
  if (!YEAR_DIGITS.test(text)) return []
  return chrono.casual
    .parse(text, CHRONO_REFERENCE)
    .filter((parsed) => parsed.start.isCertain('year') && WRITTEN_YEAR.test(parsed.text))
}

/** `answering`: a figure stands before this one, which a bare number may answer (ELLIPSIS_BEFORE). */
function readFigure(text: string, match: RegExpExecArray, answering = false): Figure | 'year' | undefined {
  const start = match.index
  let end = start + match[0].length
  const digits = (match[2] as string).replace(/,/g, '')
  let value = Number(digits) * (match[1] ? -1 : 1)
  // A bare year ("in 2025", "by 2027") is a date, whatever word follows it.
  // Written with a thousands comma ("2,070 workers") it is a count, never a year.
  const bareYear = /^(?:19|20)\d{2}$/.test(match[2] as string) && !match[1]
  const before = text.slice(Math.max(0, start - 5), start)
  let unit = CURRENCY_BEFORE.find(([pattern]) => pattern.test(before))?.[1] ?? ''

  const scale = SCALE_WORD.exec(text.slice(end))
  // A letter after a number is a scale with a currency ("£2.4m"), or written onto it before a plural
  // noun ("2.4m visits", "3k runners"); "a 2.4m wall" and "2.4 m" are metres.
  const counted = scale !== null && scale[0] === scale[1] && PLURAL_AFTER.test(text.slice(end + scale[0].length))
  const scaled = scale !== null && (unit !== '' || !LETTER_SCALES.has(scale[1] as string) || counted)
  if (scale && scaled) {
    value *= SCALES[scale[1] as string] as number
    end += scale[0].length
  }
  const named = UNIT_PHRASE.exec(text.slice(end))
  // A year before an abbreviation is a year ("in 2024 ML spending rose"), not 2,024 millilitres.
  if (named && bareYear && !scaled && unit === '' && SHORT_UNITS.has(named[1] as string)) return 'year'
  if (named) {
    const alias = UNIT_ALIASES[named[1] as string] ?? (named[1] as string)
    // A currency word after the number names what a bare "80" was: "80 dollars" is "$80".
    unit = unit === '' || unit === alias ? alias : `${unit} ${alias}`
    end += named[0].length
  } else if (unit === '') {
    if (bareYear && !scaled) return 'year'
    let next = NEXT_WORD.exec(text.slice(end))
    // "A 310-strong workforce", "300-odd jobs": the noun after the modifier is what is counted; "85
    // of its workers" counts workers.
    const partitive = PARTITIVE.exec(text.slice(end))
    if (next && (COUNT_MODIFIERS.has(next[1] as string) || COMPARATIVES.has(next[1] as string))) {
      end += next[0].length
      next = NEXT_WORD.exec(text.slice(end))
    } else if (partitive) {
      end += partitive[0].length
      next = NEXT_WORD.exec(text.slice(end))
    }
    let word = next?.[1]
    // "A workforce of 58", "Ashcombe's staff of 58 faces a wait": what is counted is named before
    // "of", when nothing after the number is a noun it counts (a word followed by "a" or "the" is a
    // verb with its object).
    const namedBefore = COUNTED_BEFORE.exec(text.slice(0, start))?.[1]
    if (namedBefore && (!word || VERB_OBJECT.test(text.slice(end + (next?.[0] ?? '').length)))) word = namedBefore
    else if (
      word &&
      !NOT_UNITS.has(word) &&
      !MONTHS.includes(word) &&
      !(answering && participleAfterEllipsis(word, text, start))
    )
      end += (next?.[0] ?? '').length
    else word = undefined
    // "19 teaching posts", "40 PCSO roles", "12 police community support officer posts": words that
    // say what kind come before the noun that is counted, the plural that closes the phrase.
    const head = word && word !== namedBefore && !QUALIFIERS.has(word) ? headNoun(word, text.slice(end)) : undefined
    if (head) {
      word = head.noun
      end += head.length
    }
    if (word) unit = stemmer(word)
    // A word that says which of a kind, not what kind ("290 new homes", "12 extra rangers"), is read
    // with the noun after it: "new homes" and "new jobs" are two kinds.
    const qualified =
      word && word !== namedBefore && QUALIFIERS.has(word) ? /^ ([\p{Ll}][\p{L}-]{2,})/u.exec(text.slice(end)) : null
    if (qualified && !NOT_UNITS.has(qualified[1] as string)) {
      unit = `${unit} ${stemmer(qualified[1] as string)}`
      end += qualified[0].length
    }
  }
  const per = PER_UNIT.exec(text.slice(end))
  // Own keys only: "per constructor" is not Object.prototype's constructor.
  if (per && unit !== '') {
    const written = per[1] ?? 'person'
    const divisor = Object.hasOwn(UNIT_ALIASES, written) ? UNIT_ALIASES[written] : written
    if (!TIME_DIVISORS.has(divisor as string)) unit += `/${PERSON_DIVISORS.has(divisor as string) ? 'person' : divisor}`
  }
  const [measure = '', ...divisors] = unit.split('/')
  // "Ten weeks after it cleared them", "four months ago": when, counted from another event, not a
  // length the sentence states.
  if (TIME_UNITS.has(measure) && divisors.length === 0 && RELATES_TIMES.test(text.slice(end))) return undefined
  const base = IN_BASE_UNIT[measure]
  if (base) {
    value *= base[1]
    unit = [base[0], ...divisors].join('/')
  }
  return { value: Number(value.toPrecision(6)), unit }
}

/** Words of a noun phrase that say what kind ("teaching", "PCSO", "police community"), at most this many. */
const MAX_MODIFIERS = 4
const MODIFIER_WORD = /^ ([\p{L}][\p{L}-]*)/u
/** A plural noun (PLURAL_AFTER's reading): "posts", "roles", "buses"; not "status", "basis" or "this". */
const PLURAL = /^(?:[a-z]+[a-hj-rtvwxyz]s|people)$/u

/**
 * The plural noun that closes a noun phrase opened by `first`, a word that is not itself plural, when
 * every word before it is a noun that says what kind, as the tagger reads them ("19 teaching posts",
 * "40 PCSO roles", "40 police community support officer posts" count posts and roles). An adjective
 * says which of the kind, a count of its own: "310 junior members" are not "280 members" again.
 */
function headNoun(first: string, rest: string): { noun: string; length: number } | undefined {
  if (PLURAL.test(first) || NOT_UNITS.has(first)) return undefined
  const phrase = [first]
  let length = 0
  for (let words = 1; words <= MAX_MODIFIERS; words++) {
    const next = MODIFIER_WORD.exec(rest.slice(length))
    if (!next) return undefined
    const word = next[1] as string
    if (NOT_UNITS.has(word) || MONTHS.includes(word)) return undefined
    length += next[0].length
    phrase.push(word)
    if (PLURAL.test(word)) return classifiedNounPhrase(phrase.join(' ')) ? { noun: word, length } : undefined
  }
  return undefined
}

const MEASURES = new Set([
  ...Object.values(UNIT_ALIASES),
  ...SHORT_UNITS,
  ...CURRENCY_BEFORE.map(([, code]) => code),
  PROPORTION_UNIT,
  CLOCK_UNIT,
])

/** A noun and "of" before a number, after a determiner or a possessive: "a workforce of", "its fleet of". */
const COUNTED_BEFORE =
  /\b(?:a|an|the|its|their|his|her|our|[\p{L}]+['’]s)\s+([\p{L}][\p{L}-]{2,})\s+of\s+(?:(?:about|around|some|nearly|almost|more than|over|just over|just under)\s+)?$/u
/** What follows a verb with its object: "faces an anxious wait", "needs the money". */
const VERB_OBJECT = /^\s+(?:a|an|the|its|their|his|her|our|this|that|these|those)\b/u

/**
 * A past participle after a number that answers an earlier figure ("up from the 110 announced in
 * May") says what was done with that number, not what it counts: the number counts what the earlier
 * figure counts (ELLIPSIS_BEFORE).
 */
function participleAfterEllipsis(word: string, text: string, start: number): boolean {
  return word.length > 4 && word.endsWith('ed') && ELLIPSIS_BEFORE.test(text.slice(0, start))
}

/**
 * Words before a number that say it is what the quantity was: "up from 21,000", "rather than the
 * £68m", "doubled to £21.4m, from £9.8m" (not "compared with 1.6 on placebo", another group).
 */
const EARLIER_BEFORE =
  /\b(?:(?:up|down) from|rather than|instead of|to\s[^,;]{1,40},\s+from)\s+(?:the\s+|a\s+)?(?:[$£€]\s*)?$/u

/** What follows a number written as an ordinal ("400th", "21st"): a rank or a day, not a quantity. */
const ORDINAL_SUFFIX = /^(?:st|nd|rd|th)(?![\p{L}\p{N}])/u
/** Words before a bare number that answers an earlier figure: "of the 25,000", "up from 21,000", "than 300". */
const ELLIPSIS_BEFORE = /\b(?:the|from|than)\s+(?:[$£€]\s*)?$/u

/** A share in words ("three in five", "a fifth of"): a round number, which meets a percentage by chance. */
export function isShareInWords(figure: Figure): boolean {
  return figure.unit === PROPORTION_UNIT
}

/**
 * `text` with its times of day taken out: "Valley Sound News will have more on Drivetime from 4pm"
 * states no figure a reader could check.
 */
export function withoutTimesOfDay(text: string): string {
  const lower = text.toLowerCase()
  return CLOCK_WORD.test(lower) ? lower.replace(TIME_OF_DAY, ' ') : text
}

/** A length of time ("two years", "six weeks", "four decades"): when, not how many of a thing. */
export function isLengthOfTime(figure: Figure): boolean {
  return TIME_UNITS.has(figure.unit) || LONGER_TIMES.has(figure.unit)
}
/** Lengths of time beyond a year's, as the stemmer writes their units. */
const LONGER_TIMES = new Set(['decad', 'centuri', 'generat'])

/** A time of day names a thing ("the 9.15pm sailing") as often as it states when something happens. */
export function isTimeOfDay(figure: Figure): boolean {
  return figure.unit === CLOCK_UNIT
}

/** Points of a percentage within which a proportion in words restates it ("three in five", "58%"). */
const PROPORTION_POINTS = 5

/**
 * A figure `other` states as `figure` is: the same value of the same unit, or a proportion in words
 * of a percentage it rounds ("nearly three in five" of "58 percent").
 */
export function statesFigure(figure: Figure, other: Figure): boolean {
  if (other.value === figure.value && other.unit === figure.unit) return true
  // A rate and the quantity it is a rate of, written the one with its divisor and the other without
  // ("128 litres a head each day" / "128 litres each a day").
  const [measure, divisor] = figure.unit.split('/')
  const [otherMeasure, otherDivisor] = other.unit.split('/')
  if (other.value === figure.value && measure === otherMeasure && measure !== '' && (!divisor || !otherDivisor))
    return measures(measure as string)
  const [share, percent] = figure.unit === PROPORTION_UNIT ? [figure, other] : [other, figure]
  return (
    share.unit === PROPORTION_UNIT &&
    percent.unit === '%' &&
    Math.abs(share.value * 100 - percent.value) <= PROPORTION_POINTS
  )
}

/**
 * A figure counts a thing named by an ordinary noun ("22,500 spectators", "24,000 seats"), not a
 * currency, a percentage or a unit of measure. Two such nouns may name one quantity in other words;
 * two units of measure of different kinds (dollars and gigawatt-hours) never do.
 */
export function countsANoun(figure: Figure): boolean {
  return !measures(figure.unit)
}

/** A unit names a currency, a percentage or a unit of measure (in any of its parts: "usd/kwh"). */
function measures(unit: string): boolean {
  return unit.split(/[ /]/u).some((part) => MEASURES.has(part))
}

/**
 * A figure `other` states as one quantity: as `statesFigure` does, or as the same count under another
 * noun ("a workforce of 420" / "employ 420 people", "21,000 riders" / "21,000 people").
 */
export function statesCount(figure: Figure, other: Figure): boolean {
  return statesFigure(figure, other) || (other.value === figure.value && countsANoun(other) && countsANoun(figure))
}

export function figureKey(figure: Figure): string {
  return `${figure.unit}=${figure.value}`
}

export type Comparison = {
  /** Both state a figure of one unit, with different values. */
  figuresDiffer: boolean
  /** Both state dates, and none agree at the precision both give. */
  datesDiffer: boolean
  /** Both state a figure of one unit or a date: there was something to compare. */
  comparable: boolean
}

/**
 * How two claims' figures and dates compare. Figures compare unit by unit; dates at the precision
 * both give ("March 2026" is "2026-03-14" at month precision, and "2026" is any date in 2026).
 */
export function compareStatements(a: Statements, b: Statements): Comparison {
  let comparable = false
  let figuresDiffer = false
  for (const unit of new Set(a.figures.map((figure) => figure.unit))) {
    const theirs = valuesOf(b, unit)
    if (theirs.length === 0) {
      // A sum or a measure and its rate per thing ("£5 a day" / "£7 per car"): one price, another
      // value of it, when neither side states it the other way too.
      const mine = valuesOf(a, unit)
      const other = [...new Set(b.figures.map((figure) => figure.unit))].filter((its) => asRate(unit, its))
      if (other.length === 1 && valuesOf(a, other[0] as string).length === 0) {
        comparable = true
        if (mine.join() !== valuesOf(b, other[0] as string).join()) figuresDiffer = true
      }
      continue
    }
    comparable = true
    if (!figuresAgree(ofUnit(a, unit), ofUnit(b, unit))) figuresDiffer = true
  }
  let datesDiffer = false
  if (a.dates.length > 0 && b.dates.length > 0) {
    comparable = true
    datesDiffer = !a.dates.some((x) => b.dates.some((y) => sameDate(x, y)))
  }
  return { figuresDiffer, datesDiffer, comparable }
}

/** The same measure, one as a rate per thing and the other not ("gbp/car" and "gbp"). */
function asRate(unit: string, other: string): boolean {
  const [measure, divisor] = unit.split('/')
  const [otherMeasure, otherDivisor] = other.split('/')
  return measure === otherMeasure && measure !== '' && !divisor !== !otherDivisor && measures(measure as string)
}

function ofUnit(statements: Statements, unit: string): Figure[] {
  return statements.figures.filter((figure) => figure.unit === unit)
}

/**
 * Two sets of figures of one unit agree when each figure of either meets one of the other's: the same
 * value, or a range that holds it. A bound or rough figure stands for the range its words and its
 * last written digit allow ("just over £21m" is £21m up to £22m, and meets "£21.4m"; "nearly 7,000" is
 * above 6,000 up to 7,000, and meets "6,940"; "about 140" is 130 to 150). A figure written plainly is
 * that value only: "230 jobs" and "234 jobs" differ. What a quantity was ("up from 120") need not be
 * stated by the other.
 */
function figuresAgree(mine: Figure[], theirs: Figure[]): boolean {
  const meets = (figure: Figure, others: Figure[]) => others.some((other) => rangesMeet(figure, other))
  // What a quantity was before need not be told again: "85 posts" agrees with "85 posts, down from 120".
  const told = (figure: Figure, others: Figure[]) => figure.earlier === true || meets(figure, others)
  return mine.every((figure) => told(figure, theirs)) && theirs.every((figure) => told(figure, mine))
}

/** Two figures of one unit may be one value: the same, or within the range a rough one stands for. */
export function figuresMeet(a: Figure, b: Figure): boolean {
  return a.unit === b.unit && rangesMeet(a, b)
}

/** Two figures may be one number, whatever each counts: the same, or within a rough one's range. */
export function rangesMeet(a: Figure, b: Figure): boolean {
  if (a.value === b.value) return true
  const [aLow, aHigh] = rangeOf(a)
  const [bLow, bHigh] = rangeOf(b)
  return aLow <= bHigh && bLow <= aHigh
}

/** The values a figure may stand for: its own, or what its bound and its last written digit allow. */
function rangeOf({ value, bound }: Figure): [number, number] {
  if (!bound) return [value, value]
  // The place of its last digit that is not zero: 1,000,000 of "21m", 10 of "140", 0.1 of "0.8".
  const step = lastPlace(value)
  // Ends that the words leave open ("more than 3,000" is not 3,000) stay in: a bound is written round.
  if (bound === 'over') return [value, value + step * 0.999]
  if (bound === 'under') return [value - step * 0.999, value]
  return [value - step * 0.999, value + step * 0.999]
}

function lastPlace(value: number): number {
  const magnitude = Math.abs(value)
  if (magnitude === 0) return 1
  let place = 10 ** Math.floor(Math.log10(magnitude))
  // Down to the place of the last digit that is not zero, to within the precision figures are kept to.
  while (place > 1e-6 && Math.abs(magnitude / place - Math.round(magnitude / place)) > 1e-6) place /= 10
  return place
}

function valuesOf(statements: Statements, unit: string): number[] {
  return [...new Set(statements.figures.filter((figure) => figure.unit === unit).map((figure) => figure.value))].sort(
    (x, y) => x - y,
  )
}

/** Two dates agree at the precision both give ("2027" and "2027-Q4" do). */
export function sameDate(x: DateMention, y: DateMention): boolean {
  // A date with no year agrees with any date of its month, and with a year or a period (which may
  // hold its month): only two months told apart differ.
  if (x.startsWith(YEARLESS) || y.startsWith(YEARLESS)) {
    const [left, right] = [x.slice(4), y.slice(4)]
    if (!/^-\d/.test(left) || !/^-\d/.test(right)) return true
    const length = Math.min(left.length, right.length)
    return left.slice(0, length) === right.slice(0, length)
  }
  // Quarters and halves, seasons, and the calendar's months and days are told apart within a kind;
  // across kinds, by their year ("the spring of 2029" may be its second quarter).
  const kind = (date: string) => (/-[QH]/.test(date) ? 'period' : /-S/.test(date) ? 'season' : 'calendar')
  if (kind(x) !== kind(y)) return x.slice(0, 4) === y.slice(0, 4)
  const length = Math.min(x.length, y.length)
  return x.slice(0, length) === y.slice(0, length)
}

/** The figures of `claim` that `support` does not state: a paraphrase that changed a number. */
export function unsupportedFigures(claim: Statements, support: Statements): string[] {
  const missing = claim.figures
    .filter((figure) => !support.figures.some((other) => statesFigure(figure, other)))
    .map(figureKey)
  const dates = claim.dates.filter((date) => !support.dates.some((other) => sameDate(date, other)))
  return [...missing, ...dates]
}
