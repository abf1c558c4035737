// The shape of the synthetic web's facts. A fact is about one subject with named entities; it has
// versions over time (a figure that changes, a date that slips, or a statement that flips to its
// opposite), and every version can be said in several independent wordings that keep the entities
// and the figures but vary structure, verbs and order, as real rewordings do.

/** A date at the precision a fact gives it. */
export type When = { year: number; quarter?: number; month?: number }

export type FigureFact = {
  key: string
  kind: 'figure'
  /** The first version's value is drawn from this range, rounded to `step`. */
  range: [number, number]
  step: number
  /** Which way later versions move: prices that "fell" keep falling, so every wording stays true. */
  trend: 'up' | 'down' | 'any'
  say: (value: number) => string[]
}

export type DateFact = {
  key: string
  kind: 'date'
  precision: 'year' | 'quarter' | 'month'
  /** The first version's year is this one or the next; later versions slip later. */
  from: number
  say: (when: When) => string[]
}

/** A statement and its opposite ("was approved" / "was rejected"); either may come first. */
export type PolarityFact = { key: string; kind: 'polarity'; yes: string[]; no: string[] }

export type FactSpec = FigureFact | DateFact | PolarityFact

export type Domain = {
  key: string
  /** What a user would research: the run's topic starts with it. */
  topic: string
  sites: string[]
  /** Sentences that state no fact: openers, sign-offs, filler. */
  boilerplate: string[]
  facts: FactSpec[]
}

const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 })

/** "11,500", "1.2": thousands separated, as few decimals as the value needs. */
export function n(value: number): string {
  return WHOLE.format(value)
}

/** A value as written without separators, for wordings that spell "2,600" as "2600". */
export function plain(value: number): string {
  return String(Number(value.toFixed(2)))
}

const ORDINALS = ['first', 'second', 'third', 'fourth']
const MONTHS = 'January February March April May June July August September October November December'.split(' ')

/** "the third quarter of 2027" */
export function quarterLong(when: When): string {
  return `the ${ORDINALS[(when.quarter ?? 1) - 1]} quarter of ${when.year}`
}

/** "Q3 2027" */
export function quarterShort(when: When): string {
  return `Q${when.quarter ?? 1} ${when.year}`
}

/** "March 2027" */
export function monthYear(when: When): string {
  return `${MONTHS[(when.month ?? 1) - 1]} ${when.year}`
}

export function figure(
  key: string,
  range: [number, number],
  step: number,
  trend: FigureFact['trend'],
  say: FigureFact['say'],
): FigureFact {
  return { key, kind: 'figure', range, step, trend, say }
}

export function dated(key: string, precision: DateFact['precision'], from: number, say: DateFact['say']): DateFact {
  return { key, kind: 'date', precision, from, say }
}

export function polar(key: string, yes: string[], no: string[]): PolarityFact {
  return { key, kind: 'polarity', yes, no }
}
