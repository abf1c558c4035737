// Scores one run of the quality benchmark against the synthetic web's ground truth. The truth is
// relative to what memory held before the run, so a loss upstream (a claim dropped in epoch 1 for an
// invented quote) is not scored again as a classification error later: a fact version stated on a
// page the run read is truly new when memory held no version of its fact, confirmed when it held
// that version, updated when it held an earlier figure or date, and contradicted when the version
// memory held last says the opposite.
import { lookup, normalizeText, type RegistryEntry } from '#bench/quality/registry.ts'
import { type Fact, type Page, versionKey } from '#bench/quality/web.ts'

export type ChangeClass = 'new' | 'updated' | 'contradicted'
export type TrueClass = ChangeClass | 'confirmed'
export const CHANGE_CLASSES: ChangeClass[] = ['new', 'updated', 'contradicted']

/** A claim the report shows: its class, words, quote, and the URLs of the pages it cites. */
export type ShownClaim = { class: ChangeClass; text: string; quote: string; urls: string[]; previous?: string }

export type RunInput = {
  /** The topic's domain: facts of another (on stray pages) are no part of its truth. */
  domain: string
  /** Pages the run read: served to it, and not in memory's ledger. */
  readPages: Page[]
  /** Versions of each fact memory held before the run (any of its claims, history included). */
  held: Map<string, Set<number>>
  /** The texts memory held for each fact, to show beside a mistake. */
  heldTexts: Map<string, string[]>
  shown: ShownClaim[]
  /** Fact versions on read pages whose fact's memory claims gained that page as a source: confirmed. */
  confirmedInMemory: Set<string>
  /** Our own copy of every page, by URL. */
  pageText: (url: string) => string | undefined
  /** Whether a page only mentions the topic in passing (the realistic corpus marks them). */
  isPassing?: (url: string) => boolean
}

export type Got = TrueClass | 'not shown'

export type Mistake = {
  expected: TrueClass | 'no fact' | 'another topic'
  got: Got
  version: string
  claim: string
  quote?: string
  /** What the report says memory held, for updated and contradicted. */
  previous?: string
  /** What memory held about this fact before the run. */
  memory: string[]
  /** What the model did to this fact's claims, and what its judge saw (model path). */
  trace?: { claims?: unknown; judge?: unknown }
  /** A fact version no claim showed: whether a page that states it gave the report another finding. */
  pageShown?: boolean
}

export type ClassCounts = {
  /** Shown claims of this class. */
  reported: number
  /** ...whose fact version truly is of this class. */
  correct: number
  /** Fact versions of this class on the pages read. */
  truth: number
  /** ...that some shown claim reports as this class. */
  found: number
  /** ...that the run shows or confirms at all (not dropped, not left out of the synthesis). */
  classified: number
}

export type RunScore = {
  classes: Record<ChangeClass, ClassCounts>
  /** Truly confirmed fact versions on the pages read, and how many of them were shown as new. */
  confirmedTruth: number
  rewordedAsNew: number
  shown: number
  /** Shown claims whose quote is not on a page they cite. */
  unsupportedShown: number
  /** Shown claims that state no fact of the web (boilerplate). */
  noFact: number
  /** Shown claims that state a fact of another topic (from a stray page); in no class's counts. */
  offTopicShown: number
  /** Shown claims whose every cited page only mentions the topic in passing. */
  passingShown: number
  /** Fact version outcomes: expected -> got -> count. */
  confusion: Record<string, Record<string, number>>
  mistakes: Mistake[]
}

export function truthOf(fact: Fact, version: number, held: Set<number> | undefined): TrueClass {
  if (!held || held.size === 0) return 'new'
  if (held.has(version)) return 'confirmed'
  const latest = Math.max(...held)
  return fact.versions[latest]?.positive === fact.versions[version]?.positive ? 'updated' : 'contradicted'
}

export function scoreRun(
  input: RunInput,
  web: { facts: Map<string, Fact>; registry: Map<string, RegistryEntry> },
): RunScore {
  const { classes } = scoreOfNothing()
  const truth = (key: string) => {
    const [fact, version] = splitKey(key)
    return truthOf(web.facts.get(fact) as Fact, version, input.held.get(fact))
  }
  const mistakes: Mistake[] = []
  const memoryOf = (key: string) => input.heldTexts.get(splitKey(key)[0]) ?? []

  // Shown claims: which fact version each states (by its quote, else its words), and whether the
  // quote is really on every page it cites.
  const shownByVersion = new Map<string, ShownClaim[]>()
  let unsupportedShown = 0
  let noFact = 0
  let offTopicShown = 0
  let passingShown = 0
  const ofTopic = (fact: string) => fact.startsWith(`${input.domain}/`)
  for (const claim of input.shown) {
    const quote = normalizeText(claim.quote)
    const onPages =
      claim.urls.length > 0 && claim.urls.every((url) => normalizeText(input.pageText(url) ?? '').includes(quote))
    if (!onPages || quote.length === 0) unsupportedShown += 1
    if (input.isPassing && claim.urls.length > 0 && claim.urls.every(input.isPassing)) passingShown += 1
    const entry = lookup(web.registry, claim.quote) ?? lookup(web.registry, claim.text)
    if (entry?.kind === 'fact' && !ofTopic(entry.fact)) {
      offTopicShown += 1
      mistakes.push({
        expected: 'another topic',
        got: claim.class,
        version: versionKey(entry.fact, entry.version),
        claim: claim.text,
        quote: claim.quote,
        memory: [],
      })
      continue
    }
    classes[claim.class].reported += 1
    if (entry?.kind !== 'fact') {
      noFact += 1
      mistakes.push({
        expected: 'no fact',
        got: claim.class,
        version: '',
        claim: claim.text,
        quote: claim.quote,
        memory: [],
      })
      continue
    }
    const key = versionKey(entry.fact, entry.version)
    shownByVersion.set(key, [...(shownByVersion.get(key) ?? []), claim])
    if (truth(key) === claim.class) classes[claim.class].correct += 1
  }

  // Fact versions on the pages read: was each one reported as what it is?
  const present = new Map<string, string>()
  const pagesOf = new Map<string, string[]>()
  for (const page of input.readPages) {
    for (const statement of page.statements) {
      if (!ofTopic(statement.fact)) continue
      const key = versionKey(statement.fact, statement.version)
      if (!present.has(key)) present.set(key, statement.text)
      const pages = pagesOf.get(key) ?? []
      if (pages.length === 0) pagesOf.set(key, pages)
      pages.push(page.url)
    }
  }
  const cited = new Set(input.shown.flatMap((claim) => claim.urls))
  const confusion: RunScore['confusion'] = {}
  let confirmedTruth = 0
  let rewordedAsNew = 0
  for (const [key, sentence] of present) {
    const expected = truth(key)
    const claims = shownByVersion.get(key) ?? []
    const kinds = new Set(claims.map((claim) => claim.class))
    const got: Got = kinds.has(expected as ChangeClass)
      ? expected
      : (claims[0]?.class ?? (input.confirmedInMemory.has(key) ? 'confirmed' : 'not shown'))
    confusion[expected] ??= {}
    ;(confusion[expected] as Record<string, number>)[got] =
      ((confusion[expected] as Record<string, number>)[got] ?? 0) + 1
    if (expected === 'confirmed') {
      confirmedTruth += 1
      if (kinds.has('new')) rewordedAsNew += 1
    } else {
      classes[expected].truth += 1
      if (kinds.has(expected)) classes[expected].found += 1
      if (got !== 'not shown') classes[expected].classified += 1
    }
    for (const claim of claims.filter((shown) => shown.class !== expected)) {
      mistakes.push({
        expected,
        got: claim.class,
        version: key,
        claim: claim.text,
        quote: claim.quote,
        previous: claim.previous,
        memory: memoryOf(key),
      })
    }
    if (expected !== 'confirmed' && claims.length === 0) {
      const pageShown = (pagesOf.get(key) ?? []).some((url) => cited.has(url))
      mistakes.push({ expected, got, version: key, claim: sentence, memory: memoryOf(key), pageShown })
    }
  }
  return {
    classes,
    confirmedTruth,
    rewordedAsNew,
    shown: input.shown.length,
    unsupportedShown,
    noFact,
    offTopicShown,
    passingShown,
    confusion,
    mistakes,
  }
}

/** Sums run scores (mistakes are concatenated). */
export function addScores(scores: RunScore[]): RunScore {
  const total = scoreOfNothing()
  for (const score of scores) {
    for (const kind of CHANGE_CLASSES) {
      for (const field of ['reported', 'correct', 'truth', 'found', 'classified'] as const) {
        total.classes[kind][field] += score.classes[kind][field]
      }
    }
    total.confirmedTruth += score.confirmedTruth
    total.rewordedAsNew += score.rewordedAsNew
    total.shown += score.shown
    total.unsupportedShown += score.unsupportedShown
    total.noFact += score.noFact
    total.offTopicShown += score.offTopicShown
    total.passingShown += score.passingShown
    for (const [expected, row] of Object.entries(score.confusion)) {
      total.confusion[expected] ??= {}
      for (const [got, count] of Object.entries(row)) {
        const target = total.confusion[expected] as Record<string, number>
        target[got] = (target[got] ?? 0) + count
      }
    }
    total.mistakes.push(...score.mistakes)
  }
  return total
}

export function scoreOfNothing(): RunScore {
  return {
    classes: Object.fromEntries(
      CHANGE_CLASSES.map((kind) => [kind, { reported: 0, correct: 0, truth: 0, found: 0, classified: 0 }]),
    ) as Record<ChangeClass, ClassCounts>,
    confirmedTruth: 0,
    rewordedAsNew: 0,
    shown: 0,
    unsupportedShown: 0,
    noFact: 0,
    offTopicShown: 0,
    passingShown: 0,
    confusion: {},
    mistakes: [],
  }
}

/** A share, or NaN when there was nothing to count. */
export function ratio(part: number, whole: number): number {
  return whole === 0 ? Number.NaN : part / whole
}

export function precision(counts: ClassCounts): number {
  return ratio(counts.correct, counts.reported)
}

export function recall(counts: ClassCounts): number {
  return ratio(counts.found, counts.truth)
}

function splitKey(key: string): [string, number] {
  const at = key.lastIndexOf('@')
  return [key.slice(0, at), Number(key.slice(at + 1))]
}
