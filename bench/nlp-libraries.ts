// Which NLP library should the engine read news sentences with (issue 40, item 5)? Three readers on
// the hand-written corpus (bench/quality/narrative/): a, the engine's current code; b, wink-nlp with
// its npm-shipped model wink-eng-lite-web-model; c, compromise. Four measurements, each by topic
// split (development / held-out) and overall:
//
//   1. sentence boundaries: the share of the corpus's tagged sentences a reader returns as one sentence
//   2. negation and stance: pairs of wordings of polarity facts read as opposed / as the same stance
//   3. the noun a number counts: no gold label, so examples side by side and how often it is empty
//   4. CPU per sentence (warm), load time and RSS after loading (each in a fresh child process)
//
// Examples (misses, disagreements) are printed from development topics only: held-out topics' pages
// and mistakes are not to be read by whoever changes the engine (bench/quality/narrative/README.md).
// The stance lexicon below was written once from general English before any measurement, and both
// libraries use it unchanged: only their own tagging, lemmas and negation differ.
//
//   node_modules/.bin/node bench/nlp-libraries.ts
import { execFileSync } from 'node:child_process'
import type { ItemEntity, ItsFunction } from 'wink-nlp'
import type { NarrativeTopic, Split } from '#bench/quality/narrative.ts'
import type { Page } from '#bench/quality/web.ts'
import type { Polarity } from '#server/claims/subject.ts'

// ---------------------------------------------------------------------------------------------------
// The one stance lexicon, shared by both libraries' readers (verb lemmas; phrasal verbs as "verb particle").

type Way = 'up' | 'down'
const STANCE_UP =
  'approve back endorse support favour favor grant award pass sign agree authorise authorize sanction ratify adopt ' +
  'accept allow permit clear greenlight green-light uphold proceed resume reinstate restore renew'
const STANCE_DOWN =
  'reject deny refuse oppose block veto ban bar prohibit forbid withdraw revoke rescind repeal cancel halt stop ' +
  'scrap shelve abandon suspend pause overturn overrule quash annul void axe ditch drop terminate kill fail'
const PHRASAL_UP = ['go ahead', 'press ahead', 'push ahead', 'vote through', 'wave through', 'sign off']
const PHRASAL_DOWN = [
  'vote down',
  'pull out',
  'walk away',
  'turn down',
  'throw out',
  'set aside',
  'strike down',
  'call off',
  'back out',
  'rule out',
  'shut down',
]
export const STANCE_VERBS: ReadonlyMap<string, Way> = new Map([
  ...STANCE_UP.split(' ').map((lemma) => [lemma, 'up'] as const),
  ...STANCE_DOWN.split(' ').map((lemma) => [lemma, 'down'] as const),
])
export const STANCE_PHRASALS: ReadonlyMap<string, Way> = new Map([
  ...PHRASAL_UP.map((phrase) => [phrase, 'up'] as const),
  ...PHRASAL_DOWN.map((phrase) => [phrase, 'down'] as const),
])
/** "voted it down": an object pronoun may stand between a verb and its particle. */
const OBJECT_PRONOUNS = new Set(['it', 'them', 'this', 'that', 'these', 'those'])

/**
 * The stance of one verb the library tagged as a verb: its lemma (a library may give a phrasal verb's
 * lemma whole, "turn down") and the words after it, lower case, for a particle.
 */
export function stanceOfVerb(lemma: string, following: string[]): Way | undefined {
  const whole = STANCE_PHRASALS.get(lemma)
  if (whole) return whole
  const [next = '', after = ''] = following
  const phrasal =
    STANCE_PHRASALS.get(`${lemma} ${next}`) ??
    (OBJECT_PRONOUNS.has(next) ? STANCE_PHRASALS.get(`${lemma} ${after}`) : undefined)
  if (phrasal) return phrasal
  return STANCE_VERBS.get(lemma.split(' ')[0] ?? '')
}

/** A verb as a library reads it: lemma, the next two words, and whether the library says it is negated. */
export type VerbReading = { lemma: string; following: string[]; negated: boolean }

/**
 * A sentence's polarity in the engine's terms, from a library's reading, so the engine's own `opposed`
 * compares it. A stance verb the library marks negated turns round ("did not approve" is a "down"); a
 * sentence whose stance verbs point both ways says nothing of stance (as the engine's polarity). With no
 * stance verb, the sentence is negated if the library marks any negation in it.
 */
export function stancePolarity(verbs: VerbReading[], sentenceNegated: boolean): Reading {
  const ways = new Set<Way>()
  const evidence: string[] = []
  for (const verb of verbs) {
    const way = stanceOfVerb(verb.lemma, verb.following)
    if (!way) continue
    ways.add(verb.negated ? (way === 'up' ? 'down' : 'up') : way)
    evidence.push(`${verb.negated ? 'not ' : ''}${verb.lemma}(${verb.following.join(' ')}):${way}`)
  }
  if (ways.size === 0) return { polarity: { negated: sentenceNegated, directions: [] }, evidence }
  return { polarity: { negated: false, directions: ways.size === 1 ? [`stance:${[...ways][0]}`] : [] }, evidence }
}

/** A sentence's polarity and, for a reader built on the lexicon, the stance verbs it found. */
export type Reading = { polarity: Polarity; evidence: string[] }

/** What a number counts: after up to three adjectives or numbers, the last noun of the run of nouns. */
type WordClass = 'noun' | 'adj' | 'num' | 'other'
export function countedNoun(after: Array<{ kind: WordClass; lemma: string }>): string {
  let index = 0
  while (index < 3 && (after[index]?.kind === 'adj' || after[index]?.kind === 'num')) index += 1
  let noun = ''
  while (after[index]?.kind === 'noun') {
    noun = after[index]?.lemma ?? ''
    index += 1
  }
  return noun
}

// ---------------------------------------------------------------------------------------------------
// Helpers

const SPLITS: Array<Split | 'all'> = ['development', 'held-out', 'all']
type Tally = Record<Split | 'all', { hit: number; total: number }>
const tally = (): Tally => ({
  development: { hit: 0, total: 0 },
  'held-out': { hit: 0, total: 0 },
  all: { hit: 0, total: 0 },
})
function count(t: Tally, split: Split, hit: boolean): void {
  for (const key of [split, 'all'] as const) {
    t[key].total += 1
    if (hit) t[key].hit += 1
  }
}
const share = (part: { hit: number; total: number }) =>
  part.total === 0 ? '-' : `${((100 * part.hit) / part.total).toFixed(1)}% (${part.hit}/${part.total})`
/** The mean of two accuracies, in percent. */
const percent = (a: { hit: number; total: number }, b: { hit: number; total: number }) =>
  `${((50 * a.hit) / Math.max(1, a.total) + (50 * b.hit) / Math.max(1, b.total)).toFixed(1)}%`
const collapse = (text: string) => text.replace(/\s+/gu, ' ').trim()
const clip = (text: string, length = 150) => {
  const flat = collapse(text)
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat
}
const SENTENCE_END = /[.!?]["'”’)\]]*$/u
const blankLineParagraphs = (text: string) => text.split(/\n[ \t]*\n/u).filter((part) => part.trim())

function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)))
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd()
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n')
}

/** CPU milliseconds (user + system) of `work`: the median of `passes` runs, after `warmUp`. */
function cpuMs(work: () => void, passes: number, warmUp?: () => void): number {
  warmUp?.()
  const times = Array.from({ length: passes }, () => {
    const before = process.cpuUsage()
    work()
    const used = process.cpuUsage(before)
    return (used.user + used.system) / 1000
  }).sort((a, b) => a - b)
  return times[Math.floor(times.length / 2)] ?? 0
}

const MB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`

// ---------------------------------------------------------------------------------------------------
// The three readers

type Reader = {
  key: 'a' | 'b' | 'c'
  name: string
  /** A page's sentences from its whole text. */
  sentences: (text: string) => string[]
  /** The engine's splitter paragraph by paragraph (the text split on blank lines), for comparison. */
  paragraphSentences?: (text: string) => string[]
  polarity: (sentence: string) => Reading
  /** For each number the reader finds: how it prints it, and the unit or noun it says it counts. */
  numbers: (sentence: string) => Array<{ number: string; unit: string }>
  /** Everything the reader does to one sentence (for CPU): stance and numbers from one analysis. */
  read: (sentence: string) => void
  /** The library's analysis of a sentence alone, without reading anything out of it (for CPU). */
  parse: (sentence: string) => void
}

async function engineReader(): Promise<Reader> {
  const { proseParagraphs, completeSentences } = await import('#server/text/prose.ts')
  const { polarity } = await import('#server/claims/subject.ts')
  const { extractStatements } = await import('#server/claims/figures.ts')
  const numbers = (sentence: string) =>
    extractStatements(sentence).figures.map((figure) => ({ number: String(figure.value), unit: figure.unit }))
  return {
    key: 'a',
    name: 'a engine',
    sentences: (text) => proseParagraphs(text).flatMap((paragraph) => completeSentences(paragraph)),
    paragraphSentences: (text) => blankLineParagraphs(text).flatMap((paragraph) => completeSentences(paragraph)),
    polarity: (sentence) => ({ polarity: polarity(sentence), evidence: [] }),
    numbers,
    read: (sentence) => {
      polarity(sentence)
      numbers(sentence)
    },
    parse: (sentence) => {
      polarity(sentence)
      numbers(sentence)
    },
  }
}

async function winkReader(): Promise<Reader> {
  const { default: winkNLP } = await import('wink-nlp')
  const { default: model } = await import('wink-eng-lite-web-model')
  const nlp = winkNLP(model)
  const its = nlp.its
  type Doc = ReturnType<typeof nlp.readDoc>
  const NUMBER_ENTITIES = new Set(['CARDINAL', 'MONEY', 'PERCENT', 'QUANTITY'])
  // wink's types give its.lemma an `addons` parameter that ItsFunction's signature does not accept.
  const lemmaOf = its.lemma as unknown as ItsFunction<string>
  type Columns = { pos: string[]; lemma: string[]; negated: boolean[] }
  const columns = (doc: Doc): Columns => {
    const tokens = doc.tokens()
    return {
      pos: tokens.out(its.pos) as string[],
      lemma: (tokens.out(lemmaOf) as string[]).map((word) => word.toLowerCase()),
      negated: tokens.out(its.negationFlag) as unknown as boolean[],
    }
  }
  const polarityOf = ({ pos, lemma, negated }: Columns): Reading => {
    const verbs: VerbReading[] = []
    pos.forEach((tag, index) => {
      if (tag !== 'VERB') return
      const following = [lemma[index + 1] ?? '', lemma[index + 2] ?? '']
      verbs.push({ lemma: lemma[index] ?? '', following, negated: negated[index] === true })
    })
    return stancePolarity(verbs, negated.some(Boolean))
  }
  const numbersOf = (doc: Doc, { pos, lemma }: Columns) => {
    const kind = (tag: string | undefined): WordClass =>
      tag === 'NOUN' ? 'noun' : tag === 'ADJ' ? 'adj' : tag === 'NUM' ? 'num' : 'other'
    const found: Array<{ number: string; unit: string }> = []
    doc.entities().each((entity: ItemEntity) => {
      const type = String(entity.out(its.type))
      if (!NUMBER_ENTITIES.has(type)) return
      const span = entity.out(its.span) as number[]
      const end = span[1] ?? 0
      const after = [1, 2, 3, 4, 5].map((step) => ({
        kind: kind(pos[end + step]),
        lemma: lemma[end + step] ?? '',
      }))
      found.push({ number: `${entity.out()} [${type}]`, unit: countedNoun(after) })
    })
    return found
  }
  return {
    key: 'b',
    name: 'b wink-nlp',
    sentences: (text) => nlp.readDoc(text).sentences().out() as string[],
    polarity: (sentence) => polarityOf(columns(nlp.readDoc(sentence))),
    numbers: (sentence) => {
      const doc = nlp.readDoc(sentence)
      return numbersOf(doc, columns(doc))
    },
    read: (sentence) => {
      const doc = nlp.readDoc(sentence)
      const read = columns(doc)
      polarityOf(read)
      numbersOf(doc, read)
    },
    parse: (sentence) => {
      nlp.readDoc(sentence)
    },
  }
}

// compromise's .json() is typed `any`: the parts of it read here.
type CTerm = { text: string; normal: string; root?: string | null; tags: string[]; index?: [number, number] }
type CPhrase = { text: string; terms: CTerm[]; verb?: { infinitive?: string; negative?: boolean } }
type CNumber = { text: string; terms: CTerm[]; number?: { unit?: string } }

async function compromiseReader(): Promise<Reader> {
  const { default: nlp } = await import('compromise')
  type Doc = ReturnType<typeof nlp>
  /** Every term of each sentence, with its root (lemma) computed. */
  const allTerms = (doc: Doc): CTerm[][] => {
    doc.compute('root')
    return (doc.json({ index: true }) as Array<{ terms: CTerm[] }>).map((sentence) => sentence.terms)
  }
  const lastIndex = (terms: CTerm[]) => terms[terms.length - 1]?.index ?? [0, 0]
  const polarityOf = (doc: Doc, sentences: CTerm[][]): Reading => {
    const phrases = doc.verbs().json({ index: true }) as CPhrase[]
    const verbs = phrases.map((phrase): VerbReading => {
      const [sentence, term] = lastIndex(phrase.terms)
      const next = sentences[sentence] ?? []
      const following = [next[term + 1]?.normal ?? '', next[term + 2]?.normal ?? '']
      return { lemma: phrase.verb?.infinitive ?? '', following, negated: phrase.verb?.negative === true }
    })
    return stancePolarity(
      verbs,
      phrases.some((phrase) => phrase.verb?.negative === true),
    )
  }
  const numbersOf = (doc: Doc, sentences: CTerm[][]) => {
    const kind = (term: CTerm | undefined): WordClass => {
      if (!term) return 'other'
      if (term.tags.includes('Noun') && !term.tags.includes('Pronoun')) return 'noun'
      if (term.tags.includes('Adjective')) return 'adj'
      if (term.tags.includes('Value')) return 'num'
      return 'other'
    }
    const found: Array<{ number: string; unit: string }> = []
    // Dates are not counts: the engine masks them and wink gives them as DATE entities.
    for (const value of doc.numbers().json({ index: true }) as CNumber[]) {
      if (value.terms.some((term) => term.tags.includes('Date'))) continue
      const [sentence, term] = lastIndex(value.terms)
      const next = sentences[sentence] ?? []
      const after = [1, 2, 3, 4, 5].map((step) => {
        const word = next[term + step]
        return { kind: kind(word), lemma: word?.root || word?.normal || '' }
      })
      found.push({ number: value.text.replace(/[,;:.]$/u, ''), unit: value.number?.unit || countedNoun(after) })
    }
    return found
  }
  const split = (text: string) => (nlp(text).sentences().out('array') as string[]).map((sentence) => sentence.trim())
  return {
    key: 'c',
    name: 'c compromise',
    sentences: split,
    polarity: (sentence) => {
      const doc = nlp(sentence)
      return polarityOf(doc, allTerms(doc))
    },
    numbers: (sentence) => {
      const doc = nlp(sentence)
      return numbersOf(doc, allTerms(doc))
    },
    read: (sentence) => {
      const doc = nlp(sentence)
      const terms = allTerms(doc)
      polarityOf(doc, terms)
      numbersOf(doc, terms)
    },
    parse: (sentence) => {
      nlp(sentence)
    },
  }
}

const READERS = { a: engineReader, b: winkReader, c: compromiseReader }

/**
 * A control for section 2, no library: the same lexicon on plain words, every word a candidate verb,
 * matched by the engine's stemmer (stemmer(word) against stemmer(lemma)), negated when a negation word
 * stands in the three words before it. What the libraries add is their distance from this row.
 */
async function lexiconOnly(): Promise<{ name: string; polarity: (sentence: string) => Reading }> {
  const { stemmer } = await import('stemmer')
  const byStem = new Map<string, string>()
  for (const lemma of [
    ...STANCE_VERBS.keys(),
    ...[...STANCE_PHRASALS.keys()].map((phrase) => phrase.split(' ')[0] ?? ''),
  ])
    byStem.set(stemmer(lemma), lemma)
  const NEGATION = /^(?:not|never|no|cannot|nobody|none|nothing|neither|nor)$|n['’]t$/u
  return {
    name: 'd lexicon only (control)',
    polarity: (sentence) => {
      const words = sentence.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? []
      const verbs: VerbReading[] = []
      words.forEach((word, index) => {
        const lemma = byStem.get(stemmer(word))
        if (!lemma) return
        const negated = words.slice(Math.max(0, index - 3), index).some((before) => NEGATION.test(before))
        verbs.push({ lemma, following: words.slice(index + 1, index + 3), negated })
      })
      return stancePolarity(
        verbs,
        words.some((word) => NEGATION.test(word)),
      )
    },
  }
}

// ---------------------------------------------------------------------------------------------------
// 4 (part): load time and RSS, each reader alone in a fresh process

type LoadFigures = { rssBefore: number; loadMs: number; firstMs: number; rssAfter: number }

async function loadOnly(key: keyof typeof READERS): Promise<LoadFigures> {
  const rssBefore = process.memoryUsage().rss
  let start = performance.now()
  const reader = await READERS[key]()
  const loadMs = performance.now() - start
  start = performance.now()
  reader.read('The council did not approve the 12 new stops.')
  const firstMs = performance.now() - start
  return { rssBefore, loadMs, firstMs, rssAfter: process.memoryUsage().rss }
}

function loadInChild(key: keyof typeof READERS): LoadFigures {
  const out = execFileSync(process.execPath, [import.meta.filename, '--load', key], { encoding: 'utf8' })
  return JSON.parse(out) as LoadFigures
}

// ---------------------------------------------------------------------------------------------------
// The measurements

type TopicPage = { page: Page; split: Split; topic: NarrativeTopic }

function boundaries(readers: Reader[], pages: TopicPage[]): string {
  const variants = readers.flatMap((reader) => [
    { name: `${reader.name}${reader.key === 'a' ? ' (proseParagraphs)' : ' (whole text)'}`, split: reader.sentences },
    ...(reader.paragraphSentences
      ? [{ name: `${reader.name} (blank-line paragraphs)`, split: reader.paragraphSentences }]
      : []),
  ])
  const rows: string[][] = []
  const misses: string[] = []
  for (const variant of variants) {
    const t = tally()
    const shown: string[] = []
    let returnedPieces = 0
    let unpunctuatedMisses = 0
    let allMisses = 0
    for (const { page, split } of pages) {
      const pieces = variant.split(page.text).map(collapse)
      returnedPieces += pieces.length
      const returned = new Set(pieces)
      for (const statement of page.statements) {
        const wanted = collapse(statement.text)
        const hit = returned.has(wanted)
        count(t, split, hit)
        if (!hit) allMisses += 1
        if (!hit && !SENTENCE_END.test(wanted)) unpunctuatedMisses += 1
        if (hit || split !== 'development' || shown.length >= 3) continue
        const near = pieces.filter(
          (piece) =>
            piece.includes(wanted.slice(0, 30)) ||
            piece.includes(wanted.slice(-30)) ||
            (piece.length > 12 && wanted.includes(piece)),
        )
        shown.push(
          `  tagged: ${clip(wanted)}\n${near.length === 0 ? '    (no piece overlaps it)' : near.map((piece) => `    got:  ${clip(piece)}`).join('\n')}`,
        )
      }
    }
    rows.push([
      variant.name,
      ...SPLITS.map((split) => share(t[split])),
      `${unpunctuatedMisses}/${allMisses}`,
      (returnedPieces / pages.length).toFixed(1),
    ])
    misses.push(`${variant.name}:`, ...(shown.length > 0 ? shown : ['  (no miss on development topics)']))
  }
  return [
    table(['reader', 'development', 'held-out', 'all', 'misses that are headlines', 'pieces/page'], rows),
    '(a headline: a tagged sentence with no closing punctuation; pieces/page: what the reader returns for a page)',
    '',
    'A few misses per reader (development topics only):',
    ...misses,
  ].join('\n')
}

type Pair = { a: string; b: string; split: Split; fact: string }

function stancePairs(topics: NarrativeTopic[]): {
  opposed: Pair[]
  same: Pair[]
  wordings: Array<{ text: string; split: Split }>
} {
  const opposed: Pair[] = []
  const same: Pair[] = []
  const wordings: Array<{ text: string; split: Split }> = []
  for (const topic of topics) {
    for (const fact of topic.facts) {
      if (fact.kind !== 'polarity' || fact.versions.every((version) => version.positive)) continue
      for (const version of fact.versions) {
        for (const text of version.wordings) wordings.push({ text, split: topic.split })
        version.wordings.forEach((a, index) => {
          for (const b of version.wordings.slice(index + 1)) same.push({ a, b, split: topic.split, fact: fact.key })
        })
      }
      const positive = fact.versions.filter((version) => version.positive).flatMap((version) => version.wordings)
      const negative = fact.versions.filter((version) => !version.positive).flatMap((version) => version.wordings)
      for (const a of positive) for (const b of negative) opposed.push({ a, b, split: topic.split, fact: fact.key })
    }
  }
  return { opposed, same, wordings }
}

async function stance(
  readers: Array<{ name: string; polarity: (sentence: string) => Reading }>,
  topics: NarrativeTopic[],
): Promise<string> {
  const { opposed: isOpposed } = await import('#server/claims/subject.ts')
  const { opposed, same, wordings } = stancePairs(topics)
  const show = (p: Polarity) =>
    `${p.negated ? 'negated ' : ''}${p.directions.join(',') || (p.negated ? '' : '-')}`.trim()
  const rows: string[][] = []
  const notes: string[] = []
  for (const reader of readers) {
    const cache = new Map<string, Reading>()
    const reading = (text: string) => {
      let found = cache.get(text)
      if (!found) {
        found = reader.polarity(text)
        cache.set(text, found)
      }
      return found
    }
    const read = (text: string) => reading(text).polarity
    const said = (text: string) => {
      const { polarity, evidence } = reading(text)
      return `[${show(polarity)}${evidence.length > 0 ? ` from ${evidence.join(', ')}` : ''}]`
    }
    const opposedTally = tally()
    const sameTally = tally()
    const readTally = tally()
    const shown: string[] = []
    const judge = (pairs: Pair[], t: Tally, want: boolean) => {
      for (const pair of pairs) {
        const got = isOpposed(read(pair.a), read(pair.b))
        count(t, pair.split, got === want)
        if (
          got === want ||
          pair.split !== 'development' ||
          shown.filter((line) => line.startsWith(`  ${want ? 'opposed' : 'same'}`)).length >= 3
        )
          continue
        shown.push(
          `  ${want ? 'opposed' : 'same'} pair read as ${got ? 'opposed' : 'not opposed'}:\n` +
            `    ${said(pair.a)} ${clip(pair.a, 120)}\n    ${said(pair.b)} ${clip(pair.b, 120)}`,
        )
      }
    }
    judge(opposed, opposedTally, true)
    judge(same, sameTally, false)
    for (const wording of wordings) {
      const polarity = read(wording.text)
      count(readTally, wording.split, polarity.negated || polarity.directions.some((way) => way.startsWith('stance:')))
    }
    rows.push([
      reader.name,
      ...SPLITS.map((split) => share(opposedTally[split])),
      ...SPLITS.map((split) => share(sameTally[split])),
      SPLITS.map((split) => percent(opposedTally[split], sameTally[split])).join(' / '),
      share(readTally.all),
    ])
    notes.push(`${reader.name}:`, ...(shown.length > 0 ? shown : ['  (no mistake on development topics)']))
  }
  const header = [
    'reader',
    'opposed: dev',
    'opposed: held-out',
    'opposed: all',
    'same: dev',
    'same: held-out',
    'same: all',
    'mean of both: dev / held-out / all',
    'wordings with stance/negation read',
  ]
  return [
    `Pairs: ${opposed.length} opposed, ${same.length} same (${wordings.length} wordings of ${new Set(opposed.map((pair) => pair.fact)).size} polarity facts).`,
    "Accuracy: opposed pairs read as opposed, same pairs read as not opposed, by the engine's opposed(). A reader that",
    'reads nothing scores 0% on opposed and 100% on same pairs, so the mean of the two is the figure to compare.',
    '',
    table(header, rows),
    '',
    'A few mistakes per reader (development topics only; [reading] before each sentence):',
    ...notes,
  ].join('\n')
}

function numbers(readers: Reader[], pages: TopicPage[]): string {
  const sentences: Array<{ text: string; split: Split }> = []
  const seen = new Set<string>()
  for (const { page, split } of pages) {
    for (const statement of page.statements) {
      if (!/\d/u.test(statement.text) || seen.has(statement.text)) continue
      seen.add(statement.text)
      sentences.push({ text: statement.text, split })
    }
  }
  // Numbers written with a digit, which is all the engine reads (compromise also gives "a", "ten", "first").
  const readings = readers.map((reader) =>
    sentences.map((sentence) => reader.numbers(sentence.text).filter((number) => /\d/u.test(number.number))),
  )
  const rows = readers.map((reader, index) => {
    const found = tally()
    const empty = tally()
    sentences.forEach((sentence, at) => {
      for (const number of readings[index]?.[at] ?? []) {
        count(found, sentence.split, true)
        count(empty, sentence.split, number.unit === '')
      }
    })
    return [
      reader.name,
      ...SPLITS.map((split) => `${found[split].total}`),
      ...SPLITS.map((split) => share(empty[split])),
    ]
  })
  // Examples: development sentences in which some reader finds a number (a date alone is none).
  const development = sentences.flatMap((sentence, at) =>
    sentence.split === 'development' && readings.some((found) => (found[at]?.length ?? 0) > 0) ? [at] : [],
  )
  const EXAMPLES = 30
  const picked = Array.from(
    { length: Math.min(EXAMPLES, development.length) },
    (_, index) =>
      development[Math.floor((index * development.length) / Math.min(EXAMPLES, development.length))] as number,
  )
  const examples = picked.flatMap((at, index) => [
    `[${index + 1}] ${clip(sentences[at]?.text ?? '', 400)}`,
    ...readers.map((reader, which) => {
      const found = readings[which]?.[at] ?? []
      const said = found.map((number) => `${number.number} → ${number.unit || '∅'}`).join(' | ')
      return `    ${reader.name.padEnd(13)} ${said || '(no number)'}`
    }),
  ])
  return [
    `${sentences.length} distinct tagged sentences with a digit; only numbers written with a digit are counted (the`,
    'engine reads no others; compromise also gives "a", "ten", "first"). Dates are meant to be left out: the engine',
    "masks them, wink's DATE entities are not read, compromise's numbers tagged #Date are skipped.",
    `Examples are picked evenly from the ${development.length} development sentences in which a reader finds a number.`,
    '',
    table(
      [
        'reader',
        'numbers: dev',
        'numbers: held-out',
        'numbers: all',
        'empty unit/noun: dev',
        'empty: held-out',
        'empty: all',
      ],
      rows,
    ),
    '',
    `${picked.length} examples from development topics (∅ = empty unit/noun):`,
    ...examples,
  ].join('\n')
}

function cpu(readers: Reader[], pages: TopicPage[], loads: Map<string, LoadFigures>): string {
  const engine = readers.find((reader) => reader.key === 'a') as Reader
  const sentences = pages.flatMap(({ page }) => engine.sentences(page.text))
  const rows = readers.map((reader) => {
    const splitPages = () => {
      for (const { page } of pages) reader.sentences(page.text)
    }
    const readAll = (every = 1) => {
      for (let index = 0; index < sentences.length; index += every) reader.read(sentences[index] as string)
    }
    const parseAll = () => {
      for (const sentence of sentences) reader.parse(sentence)
    }
    // compromise is some thirty times slower: its warm-up reads every fourth sentence, and one measured
    // pass keeps the run under a minute. Section 1 has split every page once already; reading warms the parse.
    const slow = reader.key === 'c'
    const passes = slow ? 1 : 5
    const splitMs = cpuMs(splitPages, passes)
    const readMs = cpuMs(readAll, passes, () => readAll(slow ? 4 : 1))
    const parseMs = cpuMs(parseAll, passes)
    const load = loads.get(reader.key) as LoadFigures
    return [
      `${reader.name} (${passes === 1 ? '1 pass' : `median of ${passes}`})`,
      `${(readMs / sentences.length).toFixed(3)}`,
      reader.key === 'a' ? '(= read)' : `${(parseMs / sentences.length).toFixed(3)}`,
      `${(splitMs / pages.length).toFixed(2)}`,
      `${load.loadMs.toFixed(0)}`,
      `${load.firstMs.toFixed(1)}`,
      MB(load.rssBefore),
      MB(load.rssAfter),
      `+${MB(load.rssAfter - load.rssBefore)}`,
    ]
  })
  return [
    `${sentences.length} sentences (every sentence the engine's splitter finds on the ${pages.length} pages), each read once`,
    'for warm-up (compromise: every fourth; pages were split once in section 1; "parse only" runs after "read"), then',
    'measured with process.cpuUsage (user + system). "read" is what the reader does to a sentence for sections 2 and 3',
    `(one analysis, stance and numbers); "parse only" is the library's analysis (readDoc / nlp()) without reading`,
    'anything out of it; "split" is section 1 on a whole page. They vary from run to run (up to two-fold on a busy machine).',
    'Load: a fresh process importing only that reader (and constructing it), then its first sentence.',
    '',
    table(
      [
        'reader',
        'read ms/sentence',
        'parse only',
        'split ms/page',
        'load ms',
        'first call ms',
        'RSS before',
        'RSS after',
        'RSS added',
      ],
      rows,
    ),
  ].join('\n')
}

async function main(): Promise<void> {
  const started = performance.now()
  const loads = new Map<string, LoadFigures>()
  for (const key of ['a', 'b', 'c'] as const) loads.set(key, loadInChild(key))
  const { loadNarrativeWeb } = await import('#bench/quality/narrative.ts')
  const web = loadNarrativeWeb()
  const readers = [await engineReader(), await winkReader(), await compromiseReader()]
  const pages: TopicPage[] = web.topics.flatMap((topic) =>
    topic.epochs.flatMap((epoch) => epoch.pages.map((page) => ({ page, split: topic.split, topic }))),
  )
  const splitOf = (split: Split) => web.topics.filter((topic) => topic.split === split).map((topic) => topic.slug)
  const { default: compromise } = await import('compromise')
  const spent: string[] = [`setup ${((performance.now() - started) / 1000).toFixed(1)}`]
  const section = async (title: string, body: () => string | Promise<string>) => {
    const start = performance.now()
    const text = await body()
    spent.push(`${title.split('.')[0]}: ${((performance.now() - start) / 1000).toFixed(1)}`)
    console.log(`\n${'='.repeat(100)}\n${title}\n${'='.repeat(100)}\n${text}`)
  }
  console.log(
    [
      'NLP libraries for reading news sentences (issue 40, item 5)',
      `Corpus: bench/quality/narrative/, ${pages.length} pages, ${pages.reduce((n, { page }) => n + page.statements.length, 0)} tagged sentences.`,
      `  development: ${splitOf('development').join(', ')}`,
      `  held-out:    ${splitOf('held-out').join(', ')}`,
      `Readers: a the engine (server/text/prose.ts, server/claims/subject.ts, server/claims/figures.ts);`,
      `  b wink-nlp + wink-eng-lite-web-model (default pipe); c compromise ${compromise.version}.`,
      `Node ${process.version}.`,
    ].join('\n'),
  )
  await section(
    '1. Sentence boundaries: tagged sentences returned exactly as one sentence (whitespace collapsed)',
    () => boundaries(readers, pages),
  )
  const control = await lexiconOnly()
  await section('2. Negation and stance on polarity facts', () => stance([...readers, control], web.topics))
  await section('3. The noun a number counts (tagged sentences with a digit)', () => numbers(readers, pages))
  await section('4. CPU, load time and memory', () => cpu(readers, pages, loads))
  console.log(`\n(ran in ${((performance.now() - started) / 1000).toFixed(1)} s; ${spent.join(', ')})`)
}

if (import.meta.main) {
  const at = process.argv.indexOf('--load')
  if (at >= 0) {
    const key = process.argv[at + 1] as keyof typeof READERS
    if (!(key in READERS)) throw new Error(`--load takes a, b or c, not ${key}`)
    process.stdout.write(JSON.stringify(await loadOnly(key)))
  } else {
    await main()
  }
}
