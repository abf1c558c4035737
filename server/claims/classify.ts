// What changed: each claim of a run is compared with what memory holds and classified as new,
// updated (same subject, another figure or date), contradicted (the opposite statement) or confirmed
// (memory already holds it). Candidates come from the claims' subjects (and from embeddings when a
// model server provides them); a model judges them in one batched call when there is one, and rules
// that read figures, dates and negation judge otherwise. The rules overrule the model only on proof:
// a claim whose figures differ from its match is never confirmed, the same figures are no update, a
// count is never one quantity with a sum of money, and a near-verbatim restatement is never new.
// The rules confirm only on positive evidence (the same figures and dates, the same stance): a claim
// they cannot tell from its match is new, with the memory claim it may repeat or reverse beside it.

import { stemmer } from 'stemmer'
import {
  compareStatements,
  countsANoun,
  extractStatements,
  type Figure,
  figuresMeet,
  isShareInWords,
  isTimeOfDay,
  isYearless,
  rangesMeet,
  type Statements,
  sameDate,
  statesCount,
  statesFigure,
  unsupportedFigures,
} from '#server/claims/figures.ts'
import { NUMBER_WORDS } from '#server/claims/number-words.ts'
import { quoteText } from '#server/claims/quote.ts'
import {
  contested,
  DECISION_NOUNS,
  decides,
  opposed,
  type Polarity,
  reversesStance,
  type Stem,
  sameStance,
  stanceSign,
  stanceThemes,
  stemsOnce,
  subjectPhrases,
  subjectTerms,
} from '#server/claims/subject.ts'
import { STOPWORDS } from '#server/claims/terms.ts'
import type { VerifiedClaim } from '#server/claims/verify.ts'
import { isPluralNoun, opensWithName, taggedTokens } from '#server/text/english.ts'
import { CALENDAR, MONTH_NAMES, nameWords } from '#server/text/names.ts'
import { wordTokens } from '#server/text/words.ts'

export type ClaimClass = 'new' | 'updated' | 'contradicted' | 'confirmed'

/** What classification needs of a claim memory holds. */
export type KnownClaim = {
  id: string
  text: string
  quote: string
  statements: Statements
  subject: string[]
  polarity: Polarity
  /** A unit vector (embeddings), when one was computed with the model in use. */
  vector?: number[]
}

/**
 * `related`: for a new claim, the memory claim about the same thing that the rules could neither
 * confirm nor tell apart from it (the stance differs in words they cannot read), shown beside it.
 */
export type Classified<K extends KnownClaim> = { claim: VerifiedClaim; class: ClaimClass; match?: K; related?: K }

/** One claim, and the memory claims closest to it in words (indexes into the request's memory). */
export type JudgeItem = { claim: { text: string; quote: string }; closest: number[] }
/**
 * What a judge reads: memory once (all of it, or the part closest to the claims when it is long) and
 * the claims. A claim may repeat, change or reverse a memory claim it shares no word with ("no new
 * boat this year" / "will take delivery of the ferry in September"), which only a reader finds.
 */
export type JudgeRequest = { memory: Array<{ text: string; quote: string }>; items: JudgeItem[] }
/** A judge's answer for item `index`: its class, and which memory claim it matches (null for new). */
export type Verdict = { index: number; class: ClaimClass; candidate: number | null }
export type Judge = (request: JudgeRequest) => Promise<Verdict[]>
/**
 * A second reading: one claim beside the one memory claim in dispute, with nothing else to choose
 * from. Asked only where the judge and the rules disagree (secondReadings).
 */
export type PairRequest = {
  pairs: Array<{ claim: { text: string; quote: string }; known: { text: string; quote: string } }>
}
/** A second reading's answer for pair `index`: "new" when the two are about different things. */
export type PairVerdict = { index: number; class: ClaimClass }
export type PairJudge = (request: PairRequest) => Promise<PairVerdict[]>

/** The length of a date that gives a year and nothing finer ("2027"). */
const YEAR = 4
/** Share of the shorter claim's words at which a decision turned round is about the same thing. */
const REVERSED_COVER = 0.34
/** Share of the shorter claim's words at which a count of one noun, changed, is an update (wordsVerdict). */
const RECOUNTED_COVER = 0.34

/** Candidates the rules weigh per claim, named to a judge as the closest. */
export const MAX_CANDIDATES = 5
/** Characters of memory a judge is shown at most: about 4,000 tokens, whatever memory holds. */
export const JUDGE_MEMORY_CHARS = 16_000
/** Subject overlap (IDF-weighted Jaccard) at which two claims are about one thing. */
const SAME_SUBJECT = 0.5
/** Overlap at which two claims stating the same figures are one fact in other words. */
const RELATED_SUBJECT = 0.25
/** Below this, a memory claim is no candidate at all. */
const MIN_CANDIDATE = 0.1
const MIN_COSINE = 0.55
/** Overlap at which a changed figure of the same unit is an update even when the judge is silent. */
const UPDATED_SUBJECT = 0.25

/** Share of the shorter telling's words the other holds, for a measure that moved to be that thing's. */
const RENAMED_COVER = 0.5
/**
 * Share of the shorter claim's weighted words the other has too: a narrative sentence wraps a fact
 * in clauses ("after ground surveys showed...") that sink a Jaccard, not this.
 */
const MIN_COVER = 0.3
/** The memory claims among which a judge at random names the likeliest (candidatesFor) one time in four at most. */
const LIKELIEST_AMONG = 4

type Candidate<K> = { known: K; lexical: number; cosine: number; cover: number }

/**
 * Classifies a run's claims against memory. `judge` (the model) is asked once about every claim that
 * has candidates; when it fails or answers nonsense, the rules decide. `secondReading` (the model
 * again) is asked once about the claims where the judge and the rules disagree (secondReadings).
 */
export async function classifyClaims<K extends KnownClaim>(
  claims: Array<VerifiedClaim & { vector?: number[] }>,
  memory: K[],
  judge?: Judge,
  secondReading?: PairJudge,
): Promise<Classified<K>[]> {
  // Against an empty memory every claim is new (no candidate, no restatement, nothing to ask).
  if (memory.length === 0) return claims.map((claim) => ({ claim, class: 'new' }))
  const wordings = new Map<KnownClaim | VerifiedClaim, string[][]>()
  const stem = stemsOnce()
  for (const item of [...claims, ...memory]) wordings.set(item, subjectWordings(item, stem))
  const weight = idfWeights([...wordings.values()].flat())
  readNames([...claims, ...memory])
  readThings([...claims, ...memory], stem)
  const byQuote = new Map<string, K>()
  for (const known of memory) {
    for (const text of [known.quote, known.text]) if (text) byQuote.set(quoteText(text), known)
  }
  const overlap = (claim: VerifiedClaim, known: K) =>
    bestOverlap(wordings.get(claim) ?? [claim.subject], wordings.get(known) ?? [known.subject], weight)
  // How close a memory claim is to a claim: by words, by the shorter's share covered, by embeddings.
  const scored = (claim: VerifiedClaim & { vector?: number[] }, known: K): Candidate<K> => ({
    known,
    ...overlap(claim, known),
    cosine: claim.vector && known.vector ? dot(claim.vector, known.vector) : 0,
  })
  const searched = claims.map((claim) => candidatesFor(claim, memory, scored))
  const candidates = searched.map(({ top }) => top)
  const restatementOf = (claim: VerifiedClaim) =>
    byQuote.get(quoteText(claim.quote)) ?? byQuote.get(quoteText(claim.text))
  // A word-for-word restatement is confirmed without asking: the judge is paid only for the doubtful.
  // Every other claim is asked, candidates or none: memory may hold it in words no rule finds.
  const asked = claims.map((_, index) => index).filter((index) => !restatementOf(claims[index] as VerifiedClaim))
  let verdicts = new Map<number, { class: ClaimClass; match?: K }>()
  if (judge && asked.length > 0) {
    const shown = memoryShown(
      asked.map((index) => candidates[index] ?? []),
      memory,
    )
    const at = new Map(shown.map((known, index) => [known, index]))
    const items = asked.map((index) => ({
      claim: { text: claims[index]?.text ?? '', quote: claims[index]?.quote ?? '' },
      closest: (candidates[index] ?? []).map(({ known }) => at.get(known) as number),
    }))
    const request = { memory: shown.map((known) => ({ text: known.text, quote: known.quote })), items }
    try {
      verdicts = new Map(
        (await judge(request)).flatMap((verdict) => {
          const index = asked[verdict.index]
          if (index === undefined) return []
          // A match outside what was shown is no match: the rules decide that claim.
          const match = verdict.candidate === null ? undefined : shown[verdict.candidate]
          if (verdict.class !== 'new' && !match) return []
          return [[index, { class: verdict.class, match }]]
        }),
      )
    } catch {
      verdicts = new Map() // the rules decide
    }
  }

  // Two claims about one thing, by their words or a number.
  const alike = (a: KnownClaim | VerifiedClaim, b: KnownClaim | VerifiedClaim) => {
    const { lexical, cover } = bestOverlap(wordings.get(a) ?? [], wordings.get(b) ?? [], weight)
    return lexical >= MIN_CANDIDATE || cover >= MIN_COVER || sharesDistinctiveValue(a.statements, b.statements)
  }

  // A judge's match is corroborated by another claim of the run about the same thing, in words or a
  // number, that it matched with the same memory claim: a judge answering at random seldom picks one
  // memory claim for two related claims, a careful one does whenever two pages restate one fact.
  // The two must be read alike (one verdict, no opposed stances); claims worded alike are one
  // reading, not two.
  const corroborated = (index: number) => {
    const own = verdicts.get(index)
    const claim = claims[index] as VerifiedClaim
    return [...verdicts].some(([other, verdict]) => {
      const peer = claims[other] as VerifiedClaim
      if (other === index || verdict.match !== own?.match || verdict.class !== own?.class) return false
      if (opposed(claim.polarity, peer.polarity)) return false
      if (quoteText(peer.quote) === quoteText(claim.quote) || quoteText(peer.text) === quoteText(claim.text))
        return false
      return alike(claim, peer)
    })
  }

  // Memory holds a fact as often as pages told it. A judge's match that tells what the likeliest
  // tells (two memory claims about one thing, in words or a number) is as good as the likeliest, when
  // so few of memory's claims tell it that a judge at random names one of them one time in four at most.
  const tellsTheLikeliest = (index: number, known: K) => {
    const likeliest = searched[index]?.likeliest
    if (!likeliest || likeliest === known || !alike(likeliest, known)) return false
    const tellings = memory.filter((other) => other === likeliest || alike(likeliest, other)).length
    return tellings * LIKELIEST_AMONG <= memory.length
  }
  const readings = claims.map((claim, index): Reading<K> => {
    const restated = restatementOf(claim)
    if (restated) return { restated }
    const found = candidates[index] ?? []
    const verdict = verdicts.get(index)
    const chosen =
      verdict?.match && (found.find(({ known }) => known === verdict.match) ?? scored(claim, verdict.match))
    // A judge's match stands on a claim that may be about the same thing (aboutTheSame), that reads
    // as its verdict says (readsAs), that another claim's match corroborates (corroborated), or that
    // the rules would guess too, by however few words (likeliest); the rules then overrule it only on
    // proof (guarded). A reversal the rules cannot read in the words ("pulled the application" /
    // "filed an application") is no proof against the judge.
    const related =
      chosen !== undefined &&
      (aboutTheSame(claim, chosen) ||
        readsAs(verdict?.class ?? 'new', claim, chosen) ||
        corroborated(index) ||
        searched[index]?.likeliest === chosen.known ||
        tellsTheLikeliest(index, chosen.known))
    return { ruled: knownChange(claim, ruleVerdict(claim, found), found), verdict, chosen, related }
  })
  const seconded = await secondReadings(claims, readings, secondReading)

  const classified = claims.map((claim, index): Classified<K> => {
    const reading = readings[index] as Reading<K>
    if (!('ruled' in reading)) return guarded(claim, 'confirmed', reading.restated)
    const { ruled, verdict, chosen } = reading
    const related = reading.related || seconded.get(index) === 'judge'
    if (!verdict || (verdict.class !== 'new' && !related)) {
      return ruled.related
        ? { claim, class: 'new' as const, related: ruled.related }
        : guarded(claim, ruled.class, ruled.match)
    }
    // The model's "new", or its match with another claim, does not stand against a same-subject
    // match the rules are sure of, nor against one its second reading found as the rules did.
    if (verdict.class === 'new') {
      return ruled.sure || seconded.get(index) === 'rules'
        ? guarded(claim, ruled.class, ruled.match)
        : { claim, class: 'new' as const }
    }
    // A judge's reversal stands against a restatement the rules found by its figures alone, when they
    // read no stance in the claim: its words of reversal may be in no list ("pull the plug on £95m" /
    // "put up £95m").
    const stanceUnread = verdict.class === 'contradicted' && ruled.class === 'confirmed' && stanceOf(claim) === 0
    if (ruled.sure && ruled.match !== chosen?.known && (chosen?.lexical ?? 0) < SAME_SUBJECT && !stanceUnread)
      return guarded(claim, ruled.class, ruled.match)
    const judged = guarded(claim, verdict.class, chosen?.known)
    // A "confirmed" the figures disprove was a match with the wrong claim, or a changed figure: an
    // update only when the two are plainly about one thing; otherwise new, beside what memory held.
    if (verdict.class === 'confirmed' && judged.class !== 'confirmed' && chosen && chosen.lexical < RELATED_SUBJECT)
      return { claim, class: 'new', related: chosen.known }
    return judged
  })

  // Several pages tell one change, each in its own words, and the rules may match one telling with
  // memory's claim and not another. A claim the rules left new that tells what another claim of the
  // run tells as an update or a reversal is that change too (tellsTheSameChange). Not against a
  // judge: its "new" was read with the claim's own words.
  const changes = classified.filter(
    ({ class: kind, match }) => match && (kind === 'updated' || kind === 'contradicted'),
  )
  return classified.map((result, index) => {
    if (result.class !== 'new' || verdicts.has(index) || changes.length === 0) return result
    const cover = (other: VerifiedClaim) =>
      bestOverlap(wordings.get(result.claim) ?? [], wordings.get(other) ?? [], weight).cover
    const sibling = changes.find((other) => tellsTheSameChange(result.claim, other, () => cover(other.claim)))
    if (!sibling?.match) return result
    // A decision memory also holds in the claim's own stance may be what the claim says again.
    const stance = stanceOf(result.claim)
    const restates = (candidates[index] ?? []).some(
      ({ known }) =>
        stanceOf(known) === stance && (sharesAThing(result.claim, known) || sharesATheme(result.claim, known)),
    )
    if (sibling.class === 'contradicted' && restates) return result
    return { claim: result.claim, class: sibling.class, match: sibling.match }
  })
}

/**
 * Whether `claim` tells the change `other` tells (an update or a reversal of memory's `other.match`),
 * in other words: an update's figure or date, moved from memory's as the other's is, in the same
 * stance ("The island is down to five crossings a day" / "the ferry now makes five return sailings a
 * day", against memory's six); or a reversal, the other's stance against memory's, on the thing the
 * other names ("Morvane walked away from its deal with Veltmar Wind" / "Morvane has cancelled its
 * agreement with Veltmar Wind", against memory's signing). Naming no one memory's claim does not.
 */
function tellsTheSameChange<K extends KnownClaim>(
  claim: VerifiedClaim,
  other: Classified<K>,
  cover: () => number,
): boolean {
  const known = other.match
  if (!known || namesDiffer(claim, known) || namesDiffer(claim, other.claim)) return false
  if (other.class === 'updated') {
    if (opposed(claim.polarity, other.claim.polarity)) return false
    const comparison = compareStatements(claim.statements, known.statements)
    if (!comparison.figuresDiffer && !comparison.datesDiffer) return false
    // The other's value now, not what it was ("down from six").
    const figure = claim.statements.figures.some(
      (mine) => !mine.earlier && other.claim.statements.figures.some((its) => !its.earlier && statesCount(mine, its)),
    )
    // A date to the month at least, on both: a bare year ("who joined the paper in 2009") agrees with
    // any day of a date with no year.
    const date = claim.statements.dates.some(
      (mine) =>
        mine.length > YEAR && other.claim.statements.dates.some((its) => its.length > YEAR && sameDate(mine, its)),
    )
    return (figure || date) && (sharesAThing(claim, other.claim) || cover() >= MIN_COVER)
  }
  if (other.class !== 'contradicted') return false
  const stance = stanceOf(claim)
  if (stance === 0 || stance !== stanceOf(other.claim) || stance === stanceOf(known)) return false
  // Another figure of memory's quantity is an update, whatever its stance words.
  if (compareStatements(claim.statements, known.statements).figuresDiffer) return false
  const tellsTheOther = sharesATheme(claim, other.claim) || sharesAThing(claim, other.claim) || cover() >= MIN_COVER
  return tellsTheOther && (sharesATheme(claim, known) || sharesAThing(claim, known))
}

/** A claim as memory restates it word for word, or as the rules and the judge read it. */
type Reading<K extends KnownClaim> =
  | { restated: K }
  | {
      ruled: RuleVerdict<K>
      verdict: { class: ClaimClass; match?: K } | undefined
      chosen: Candidate<K> | undefined
      related: boolean
    }

/** Whose verdict a second reading upheld: the judge's on its match, or the rules' on theirs. */
type Side = 'judge' | 'rules'

/**
 * Where the judge and the rules disagree, the judge is asked again about the one memory claim in
 * dispute, with nothing else beside it: a match of the judge's that the rules find no tie to (no
 * word, number or date in common: "There will be no new boat this year" / "the new ship is due in
 * September 2026"), or the judge's "new" where the rules found a claim about the same thing. A judge
 * that answered at random, or slipped to another memory number among hundreds, seldom answers a
 * question of another form the same way; a careful one does. Per disputed claim: 'judge' when the
 * second reading gives the judge's verdict on its match, which then stands; 'rules' when it gives the
 * rules' verdict on theirs.
 */
async function secondReadings<K extends KnownClaim>(
  claims: VerifiedClaim[],
  readings: Reading<K>[],
  secondReading: PairJudge | undefined,
): Promise<Map<number, Side>> {
  const agreed = new Map<number, Side>()
  if (!secondReading) return agreed
  const disputes: Array<{ index: number; known: K; expected: ClaimClass; side: Side }> = []
  readings.forEach((reading, index) => {
    if (!('ruled' in reading) || !reading.verdict) return
    const { ruled, verdict, chosen, related } = reading
    if (verdict.class !== 'new' && chosen && !related)
      disputes.push({ index, known: chosen.known, expected: verdict.class, side: 'judge' })
    else if (verdict.class === 'new' && !ruled.sure && ruled.class !== 'new' && ruled.match)
      disputes.push({ index, known: ruled.match, expected: ruled.class, side: 'rules' })
  })
  if (disputes.length === 0) return agreed
  const pairs = disputes.map(({ index, known }) => ({
    claim: { text: claims[index]?.text ?? '', quote: claims[index]?.quote ?? '' },
    known: { text: known.text, quote: known.quote },
  }))
  // Without an answer, the first readings and the rules decide.
  const answers = await secondReading({ pairs }).catch((): PairVerdict[] => [])
  for (const answer of answers) {
    const dispute = disputes[answer.index]
    if (dispute && answer.class === dispute.expected) agreed.set(dispute.index, dispute.side)
  }
  return agreed
}

/**
 * The memory a judge is shown, within JUDGE_MEMORY_CHARS: every claim's closest candidates first, in
 * turn (each claim's first, then each one's second...), then the rest of memory in its order.
 */
function memoryShown<K extends KnownClaim>(closest: Candidate<K>[][], memory: K[]): K[] {
  const shown = new Set<K>()
  let chars = 0
  const show = (known: K) => {
    if (shown.has(known)) return
    const size = known.text.length + 30
    if (chars + size > JUDGE_MEMORY_CHARS) return
    shown.add(known)
    chars += size
  }
  for (let rank = 0; rank < MAX_CANDIDATES; rank++) {
    for (const found of closest) {
      const candidate = found[rank]
      if (candidate) show(candidate.known)
    }
  }
  for (const known of memory) show(known)
  return [...shown]
}

/**
 * A change memory already holds is no change: an update whose every figure, as it now stands, another
 * memory claim gives as its own now ("210 car parking places" beside "will lose 210 kerbside spots
 * rather than the 340 first proposed", "three stations, rather than the four first proposed" beside
 * "will now be served by three new stations") tells that claim again.
 */
function knownChange<K extends KnownClaim>(
  claim: VerifiedClaim,
  ruled: RuleVerdict<K>,
  found: Candidate<K>[],
): RuleVerdict<K> {
  if (ruled.class !== 'updated') return ruled
  const now = claim.statements.figures.filter((figure) => !figure.earlier)
  if (now.length === 0 || claim.statements.dates.length > 0) return ruled
  const holds = closest(
    found.filter(
      ({ known }) =>
        known !== ruled.match &&
        !opposed(claim.polarity, known.polarity) &&
        !namesDiffer(claim, known) &&
        now.every((figure) => known.statements.figures.some((its) => !its.earlier && statesCount(figure, its))),
    ),
  )
  return holds ? { class: 'confirmed', match: holds.known, sure: false } : ruled
}

/** The rules' verdict on the best candidate; `sure` when the subjects are plainly the same. */
function ruleVerdict<K extends KnownClaim>(claim: VerifiedClaim, found: Candidate<K>[]): RuleVerdict<K> {
  const ruled = wordsVerdict(claim, found)
  // A claim that gives memory's date or count beside a new one, and says it changed ("in the second
  // quarter of 2028, rather than the final quarter of 2027"), revises it; it does not confirm it.
  const confirmedRevision =
    ruled.class === 'confirmed' && found.find(({ known }) => known === ruled.match && revises(claim, known, 0))
  if (confirmedRevision) return { class: 'updated', match: confirmedRevision.known, sure: ruled.sure }
  // One that says its figure or date holds still, and not that it changed ("the completion date stays
  // at December 2028", "the forecast of 1.1m is unchanged"), updates nothing: it is memory's claim
  // that states it again, or news beside the one it differs from.
  const holds =
    ruled.class === 'updated' && (HOLDS.test(claim.quote) || HOLDS.test(claim.text)) && !announcesChange(claim)
  if (ruled.class !== 'new' && !holds) return ruled
  // Nothing else said: a claim that announces a change of a figure or a date memory states is its
  // revision, the closest such claim in words (not sure: a judge's "new" stands against it).
  const revised = !holds && closest(found.filter(({ known, lexical }) => revises(claim, known, lexical)))
  if (revised) return { class: 'updated', match: revised.known, sure: revisesAMeasure(claim, revised) }
  // One event of one thing, at another date: "The airport is aiming to open the longer runway in
  // October 2028" / "The extended runway is due to be ready in May 2028".
  const moved = !holds && closest(found.filter(({ known }) => movesTheEvent(claim, known)))
  if (moved) return { class: 'updated', match: moved.known, sure: false }
  // A figure said to be a multiple of what it was, that multiple of memory's: the figure it replaced.
  const ratio = holds ? undefined : (multipleSaid(claim.quote) ?? multipleSaid(claim.text))
  const multiplied = ratio && closest(found.filter(({ known }) => isTheMultipleSaid(claim, known, ratio)))
  if (multiplied) return { class: 'updated', match: multiplied.known, sure: false }
  // One that says a figure or a date memory states still holds is that claim again.
  const reaffirmed = closest(found.filter(({ known, lexical }) => reaffirms(claim, known, lexical)))
  if (reaffirmed) return { class: 'confirmed', match: reaffirmed.known, sure: false }
  // One that dates a decision memory holds to a time before the news ("The council approved the
  // stadium in April", "The health board voted last month to end consultant-led births") tells it again.
  const recalled =
    !holds && datesADecisionBefore(claim) && closest(found.filter((candidate) => recallsADecision(claim, candidate)))
  if (recalled) return { class: 'confirmed', match: recalled.known, sure: false }
  return holds ? { class: 'new', sure: false, related: ruled.match } : ruled
}

/**
 * The claim dates the event memory dates, of the same thing, to another time: each gives one date and
 * says one kind of event (a start, a completion, an end, a decision), the same kind, of a thing both
 * name ("charging would begin on 1 September 2027" / "the charges start on 1 April"; "payments under
 * the contract will end on 31 January 2027" / "the current contract runs to 31 March 2029"). A story
 * dates each step of a thing once; a second date for the same step is that step moved. No figure may
 * differ, and no name.
 */
function movesTheEvent(claim: VerifiedClaim, known: KnownClaim): boolean {
  const [mine, theirs] = [claim.statements.dates, known.statements.dates]
  if (mine.length !== 1 || theirs.length !== 1) return false
  const [date, other] = [mine[0] as string, theirs[0] as string]
  if (sameDate(date, other) || (date.length <= YEAR && other.length <= YEAR) || !nearDates(date, other)) return false
  const comparison = compareStatements(claim.statements, known.statements)
  if (comparison.figuresDiffer || namesDiffer(claim, known)) return false
  const event = eventOf(claim)
  return event !== undefined && event === eventOf(known) && namesTheSameThing(claim, known)
}

/**
 * Two dates one schedule may have moved between: within three years, or one with no year ("moved to
 * September"), which is near any date, its year the story's.
 */
function nearDates(date: string, other: string): boolean {
  return isYearless(date) || isYearless(other) || Math.abs(Number(date.slice(0, 4)) - Number(other.slice(0, 4))) <= 3
}

/**
 * The event's thing, in a word both use for it: a noun, or a verb's lemma ("charging would begin" /
 * "the charges start"), not the words of timing ("expects", "due", "summer") or the event's own.
 */
function namesTheSameThing(claim: VerifiedClaim, known: KnownClaim): boolean {
  const theirs = eventThings(known)
  return [...eventThings(claim)].some((word) => theirs.has(word))
}
function eventThings(item: { quote: string }): ReadonlySet<string> {
  let things = EVENT_THINGS.get(item)
  if (!things) {
    things = new Set(
      taggedTokens(item.quote)
        .filter(({ tag, lemma }) => (tag === 'NOUN' || tag === 'VERB') && !TIMING.has(lemma) && !CALENDAR.test(lemma))
        .map(({ lemma }) => lemma)
        .filter((lemma) => !EVENT_KIND.has(lemma)),
    )
    EVENT_THINGS.set(item, things)
  }
  return things
}
const EVENT_THINGS = new WeakMap<object, ReadonlySet<string>>()
/** Words of timing, of saying and of acting bodies: not what is timed. */
const TIMING = new Set(
  (
    'be have do say tell expect aim hope plan intend target set schedule forecast predict confirm announce ' +
    'time date year month week day season spring summer autumn fall winter quarter half ' +
    // Who acts, not what is timed: the council's consultation closes, the council stopped offering.
    'council government company firm board authority agency department ministry committee cabinet trust ' +
    'operator owner developer union group'
  ).split(' '),
)

/** The one kind of event a sentence dates (EVENTS), or undefined when it names none or several. */
function eventOf(item: { quote: string }): string | undefined {
  // The main clause's event: not one supposed or told in passing ("which leaves little float if the
  // main works start late"), nor the end of a month.
  const main = item.quote.toLowerCase().split(ASIDE)[0] ?? ''
  const kinds = new Set(
    [...main.replace(/\bthe end of\b/gu, '').matchAll(EVENT_WORDS)].map((found) =>
      EVENT_KIND.get(found[0].replace(/\s+/gu, ' ')),
    ),
  )
  kinds.delete(undefined)
  return kinds.size === 1 ? [...kinds][0] : undefined
}
const ASIDE = /\b(?:if|unless|which|who|whose|although|though|while|whereas)\b/u
const EVENTS: Readonly<Record<string, string>> = {
  start:
    'start|starts|started|starting|begin|begins|began|begun|beginning|commence|commences|commenced|' +
    'take effect|takes effect|come into force|comes into force',
  completion:
    'open|opens|opened|opening|reopen|reopens|reopened|reopening|finish|finishes|finished|complete|' +
    'completes|completed|completion|ready|return to normal',
  end:
    'end|ends|ended|ending|expire|expires|expired|run to|runs to|run until|runs until|close|closes|closed|' +
    'closing|stop|stops|stopped|cease|ceases|ceased',
  decision: 'decide|decides|decided|consider|considers|considered|determine|determines|determined',
}
const EVENT_KIND = new Map(
  Object.entries(EVENTS).flatMap(([kind, words]) => words.split('|').map((word) => [word, kind] as const)),
)
const EVENT_WORDS = new RegExp(
  String.raw`\b(?:${[...EVENT_KIND.keys()]
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/ /gu, String.raw`\s+`))
    .join('|')})\b`,
  'gu',
)

/**
 * A figure the claim says is a multiple of what it was before ("passed 9,800 names, more than twice
 * the total we had in the spring"; "3.4 million workers had their data stolen, almost three times its
 * original estimate"; "has doubled to 36"), and memory's figure of which it is that multiple: a count
 * against a count, whatever noun each counts, or two values of one unit. A ratio stated and met is
 * hard to meet by chance, where two nouns alone say little. `ratio` is the claim's (multipleSaid).
 */
function isTheMultipleSaid(claim: VerifiedClaim, known: KnownClaim, [low, high]: [number, number]): boolean {
  return claim.statements.figures.some(
    (figure) =>
      !figure.earlier &&
      figure.value > 0 &&
      known.statements.figures.some(
        (other) =>
          other.value > 0 &&
          (other.unit === figure.unit || (countsANoun(other) && countsANoun(figure))) &&
          figure.value / other.value >= low &&
          figure.value / other.value <= high,
      ),
  )
}

/** The ratio a sentence says its figure stands in to an earlier one, as a range; undefined when it says none. */
function multipleSaid(text: string): [number, number] | undefined {
  const found = MULTIPLE.exec(text)
  if (!found) return undefined
  const [, hedge = '', said, verb] = found
  const factor = FACTORS[(said ?? verb ?? '').toLowerCase().replace(/\s+/gu, ' ')]
  if (factor === undefined) return undefined
  if (/more than|over/iu.test(hedge)) return [factor, factor * 1.5]
  if (/almost|nearly|close to|just under/iu.test(hedge)) return [factor * 0.8, factor]
  return [factor * 0.85, factor * 1.15]
}
const MULTIPLE =
  /\b(more than |over |almost |nearly |close to |just under |about |around |roughly )?(twice|double|three times|four times|five times|ten times|half|treble|triple)\s+(?:the|its|their|our|his|her|what|that|as)\b|\b(doubled|tripled|trebled|halved)\b/iu
const FACTORS: Readonly<Record<string, number>> = {
  twice: 2,
  double: 2,
  doubled: 2,
  'three times': 3,
  treble: 3,
  triple: 3,
  tripled: 3,
  trebled: 3,
  'four times': 4,
  'five times': 5,
  'ten times': 10,
  half: 0.5,
  halved: 0.5,
}

/**
 * Words that say a figure or a date did not move ("stays at", "is unchanged", "remains"): not "still",
 * which as often means "even so" ("it still has £2.3m left to find").
 */
const HOLDS = /\b(?:unchanged|stays?|stayed|remains?|remained|as planned)\b/iu

function continues(claim: VerifiedClaim): boolean {
  return ANNOUNCES_CONTINUITY.test(claim.quote) || ANNOUNCES_CONTINUITY.test(claim.text)
}

/**
 * Whether `claim` states a distinctive figure of `known` (sharesDistinctiveValue), or the same month
 * or day of a year, or a share in words of its percentage, on a subject they share a word of ("whose
 * finish date has slipped to October 2027" / "will not be finished until October 2027"), and nothing
 * it does not, in the same stance, naming no one it does not. A judge that read the two as one fact
 * stands on the date, the share, the same count of one thing ("the same seven cheeses"), or a month
 * both give, one of them to the day ("30 September" / "the end of September"), without
 * a word in common ("23% of the supply leaked away" / "nearly a quarter of their water seeps into
 * the ground"): that is too little for the rules alone.
 */
function restatesByFigures(
  claim: VerifiedClaim,
  { known, lexical }: Pick<Candidate<KnownClaim>, 'known' | 'lexical'>,
  judged = false,
): boolean {
  const distinctive =
    sharesDistinctiveValue(claim.statements, known.statements) ||
    sharesADay(claim.statements, known.statements) ||
    ((lexical > 0 || judged) &&
      (sharesExactDate(claim.statements, known.statements) || sharesAShare(claim.statements, known.statements))) ||
    (judged &&
      (sharesANamedCount(claim.statements, known.statements) || sharesAMonth(claim.statements, known.statements)))
  if (!distinctive) return false
  const comparison = compareStatements(claim.statements, known.statements)
  if (comparison.figuresDiffer || comparison.datesDiffer) return false
  if (statesMore(claim.statements, known.statements)) return false
  return !opposed(claim.polarity, known.polarity) && !namesDiffer(claim, known)
}

/** The counts of things a noun names ("14 routes", not "£14m", "14%" or a bare "14"), and no dates. */
function namedCounts(statements: Statements): Statements {
  return { figures: statements.figures.filter((figure) => figure.unit !== '' && countsANoun(figure)), dates: [] }
}

/**
 * Whether `a` states a figure or a date `b` does not: a count is stated by the same number under
 * another noun ("a workforce of 420" / "employ 420 people"), a sum or a measure only in its unit, and
 * a month with no year only where `b` gives a date.
 */
function statesMore(a: Statements, b: Statements): boolean {
  const stated = (figure: Figure) => b.figures.some((other) => statesCount(figure, other))
  // A month with no year says when the story happened ("walked away from its £2.5m commitment in
  // July"), not another quantity: it states more only against a date it differs from.
  return (
    a.figures.some((figure) => !stated(figure)) ||
    a.dates.some(
      (date) => !b.dates.some((other) => sameDate(date, other)) && !(isYearless(date) && b.dates.length === 0),
    )
  )
}

/** Words by which a sentence says that what it states held before and holds still. */
const ANNOUNCES_CONTINUITY =
  /\b(?:still|remains?|remained|reiterated|reaffirmed|unchanged|as planned|on (?:course|track|schedule|programme|program)|stands? by|stays?|stayed)\b/iu

/**
 * Whether `claim` says that a figure or a date of `known` still holds ("Braymoor's programme still has
 * passenger services starting in December 2028" / "trams should be running by December 2028"): it
 * says so (ANNOUNCES_CONTINUITY), states nothing `known` does not, gives a figure or a date of it, in
 * the same stance, on a subject they share a word of, naming no one `known` does not.
 */
function reaffirms(claim: VerifiedClaim, known: KnownClaim, lexical: number): boolean {
  if (lexical === 0 || !continues(claim)) return false
  const comparison = compareStatements(claim.statements, known.statements)
  // The same count under another noun gives it too ("still has 46 people on the payroll" / "all 46
  // employees are staying on").
  const gives =
    comparison.comparable ||
    claim.statements.figures.some((figure) => known.statements.figures.some((other) => statesCount(figure, other)))
  if (!gives || comparison.figuresDiffer || comparison.datesDiffer) return false
  if (statesMore(claim.statements, known.statements)) return false
  return !opposed(claim.polarity, known.polarity) && !namesDiffer(claim, known)
}

type RuleVerdict<K> = { class: ClaimClass; match?: K; sure: boolean; related?: K }

/** The candidate that shares the most words, if any. */
function closest<K>(pool: Candidate<K>[]): Candidate<K> | undefined {
  return pool.reduce<Candidate<K> | undefined>(
    (top, next) => (!top || next.lexical > top.lexical ? next : top),
    undefined,
  )
}

function wordsVerdict<K extends KnownClaim>(claim: VerifiedClaim, found: Candidate<K>[]): RuleVerdict<K> {
  // Embeddings may rank first a candidate the words do not support; the rules go by the words. A
  // claim that states a figure or a date is held against the closest memory claim that states one
  // it can be compared with, when that one is related at all: its earlier version is that one, not
  // a claim about the same thing that states nothing to compare.
  const comparable = closest(
    found.filter(({ known }) => compareStatements(claim.statements, known.statements).comparable),
  )
  const best = comparable && comparable.lexical >= RELATED_SUBJECT ? comparable : closest(found)
  // A claim that gives memory's figure beside a new one of the same unit ("$545, down from $690") says
  // which figure it replaces, in whatever words it names the thing.
  const replaced = found.find(
    ({ known }) => restatesAndChanges(claim.statements, known.statements) || redates(claim, known),
  )
  if (replaced && (!best || best.lexical < SAME_SUBJECT)) return { class: 'updated', match: replaced.known, sure: true }
  // A decision turned round ("voted down" / "approved", "withdrew" / "filed") on a thing both name is a
  // reversal, whatever the tallies: a vote lost 26-22 is not an update of one won 31-17.
  // Each naming a thing the other does not ("a factory in Texas" / "its Valencia factory") are two
  // decisions, not one turned round.
  // A reversal said as one ("withdrew its support", "walked back her promise") turns round whatever
  // memory holds decided on the thing, either way.
  const saysReversal = ANNOUNCES_REVERSAL.test(claim.quote) || ANNOUNCES_REVERSAL.test(claim.text)
  // A decision quashed, or an appeal against it allowed, is turned round by another than its maker:
  // a court or an inspector, whose name memory's decision need not give.
  const overturns = overturnsADecision(claim)
  const reversed = closest(
    found.filter(({ known, lexical, cover }) => {
      const takenBack = takesBackItsAct(claim, known)
      if (
        !reversesStance(claim.polarity, known.polarity) &&
        !((saysReversal || overturns) && stanceOf(known) !== 0) &&
        !undoesWhatWasPlanned(claim, known) &&
        !takenBack
      )
        return false
      // A contest going ahead ("a judge will hear the challenge", "the appeal was upheld") turns round
      // no contest; what it may turn round is the decision contested, which memory tells apart.
      if (contested(known.polarity) && stanceSign(claim.polarity) > 0) return false
      if (namesDiffer(claim, known) && !overturns) return false
      // A figure too precise to meet by chance is the thing both are about; otherwise they must name
      // one thing (sharesAThing) and be close enough in words.
      if (sharesDistinctiveValue(claim.statements, known.statements) || undoesADeal(claim, known) || takenBack)
        return true
      const close =
        lexical >= RELATED_SUBJECT ||
        cover >= REVERSED_COVER ||
        (cover >= MIN_COVER && (saysReversal || overturns)) ||
        // "Reverses the vote taken in November": the decision reversed, named by its month.
        (saysReversal && sharesAMonth(claim.statements, known.statements)) ||
        sharesAPhrase(claim, known) ||
        sharesATheme(claim, known)
      return close && sharesAThing(claim, known)
    }),
  )
  // The reversal is of the thing the claim is about, not of another the claim shares more words with;
  // a thing both name in the same two words is that thing ("the glass harbour wing" / "halted"). A
  // contest of the decision is no other thing: "overturned the council's refusal" is closest to
  // "appealed against the council's refusal", and reverses the refusal.
  const rival = closest(found.filter(({ known }) => !contested(known.polarity)))
  if (
    reversed &&
    (reversed.lexical >= (rival?.lexical ?? 0) - 0.1 ||
      sharesAPhrase(claim, reversed.known) ||
      undoesADeal(claim, reversed.known))
  )
    return { class: 'contradicted', match: reversed.known, sure: reversed.lexical >= SAME_SUBJECT }
  // A sum or a large count memory states, with nothing it does not, in the same stance: the same fact
  // in other words, however few words they share ("had set aside 180 million pounds to build it" /
  // "it is budgeted at £180m"), sure enough to stand against a judge's "new".
  const restating = found.filter((candidate) => restatesByFigures(claim, candidate))
  const restated = closest(restating)
  // A count of one thing changed, in a sentence that wraps it in other clauses than memory's ("From
  // the same date the airline will operate 11 routes" / "The airline will operate 14 routes from
  // Aberquell through the winter season, which..."): the counted noun says which quantity it is, and
  // the shorter claim's words say of what. (Sums and measures are many in one story; dates too.)
  const recounted =
    !restated &&
    closest(
      found.filter(
        ({ known, cover }) =>
          cover >= RECOUNTED_COVER &&
          compareStatements(namedCounts(claim.statements), namedCounts(known.statements)).figuresDiffer &&
          !namesDiffer(claim, known),
      ),
    )
  if (recounted && (!best || best.lexical < RELATED_SUBJECT))
    return { class: 'updated', match: recounted.known, sure: announcesChange(claim) }
  // A thing both name in the same two words, with a sum or a measure of one unit that moved ("the
  // £19.5m Fenwick Hill link road" / "a £14m link road"): that thing's figure, however many other
  // words wrap each. So too when most of the shorter telling's words are in the other ("will export 32
  // megawatts of electricity to the grid" / "will generate 22 megawatts of electricity, enough to run
  // itself with a surplus for the grid"): what wraps the longer one is more said of the same thing.
  const renamed =
    !restated &&
    closest(
      found.filter(
        ({ known, cover }) =>
          (sharesAPhrase(claim, known) || (cover >= RENAMED_COVER && saysMoreOf(claim, known))) &&
          movedAMeasure(claim, known),
      ),
    )
  if (!best || best.lexical < RELATED_SUBJECT) {
    if (renamed) return { class: 'updated', match: renamed.known, sure: false }
    return restated ? { class: 'confirmed', match: restated.known, sure: true } : { class: 'new', sure: false }
  }
  // Beside a closer claim the rules cannot decide on, only one that takes the same stance: "thought
  // better of the $300 million loan" is no restatement of "approved a $300 million loan".
  const alike = closest(restating.filter(({ known }) => sameStance(claim.polarity, known.polarity, true)))
  const restatement = alike && { class: 'confirmed' as const, match: alike.known, sure: true }
  // Against a closer claim whose figure differs, another that gives the claim's own figure in a stance
  // not turned round ("That campaign's petition gathered 11,400 signatures" / "a petition signed by
  // 11,400 people", beside "The petition passed 3,000 signatures in its first week"): memory knew it.
  const unturned = closest(
    restating.filter(
      ({ known }) => !opposed(claim.polarity, known.polarity) && !reversesStance(claim.polarity, known.polarity),
    ),
  )
  const toldElsewhere = unturned && { class: 'confirmed' as const, match: unturned.known, sure: false }
  const comparison = compareStatements(claim.statements, best.known.statements)
  // A claim whose every figure and date memory's claim gives tells nothing changed, though memory's
  // gives another beside it ("will yield £2.1m a year" / "expects to raise £2.1m a year, against the
  // £3.4m it forecast").
  const differs =
    (comparison.figuresDiffer || comparison.datesDiffer) &&
    unsupportedFigures(claim.statements, best.known.statements).length > 0
  // Positive evidence confirms; without it the claim is new, with this memory claim beside it (or
  // that fact again, when another memory claim states its figures: "a workforce of 420" beside the
  // "420 permanent roles" that the closest words name as "420 people").
  const confirmedOrUndecided =
    (sameStance(claim.polarity, best.known.polarity, comparison.comparable && !differs) ||
      (comparison.comparable && !differs && toldWithoutItsDecision(claim, best))) &&
    !countsDiffer(claim.statements, best.known.statements)
      ? { class: 'confirmed' as const, match: best.known, sure: true }
      : (restatement ?? { class: 'new' as const, sure: false, related: best.known })
  if (best.lexical >= SAME_SUBJECT) {
    if (opposed(claim.polarity, best.known.polarity) && !comparison.figuresDiffer) {
      return { class: 'contradicted', match: best.known, sure: true }
    }
    // Memory holding these very figures in another claim knows them already: the change was told.
    if (differs) return restatement ?? toldElsewhere ?? { class: 'updated', match: best.known, sure: true }
    return confirmedOrUndecided
  }
  // Related but not plainly the same subject: the same figures and dates in the same stance make it
  // the same fact in other words, evidence strong enough to stand against a judge's "new".
  if (comparison.comparable && !differs && !opposed(claim.polarity, best.known.polarity)) {
    return confirmedOrUndecided
  }
  // A figure of the same unit or a date that changed, on a subject that overlaps well ("will not
  // reach Mariner's Point until June 2029" / "running to Mariner's Point by December 2028"): an update
  // in other words, sure enough to stand against a judge's "new" only when the claim says that it
  // changed: two figures of one unit on a shared subject may be two quantities ("800 passengers a
  // day" / "120,000 passengers last year"), and a judge who read both may know it.
  if (
    (comparison.figuresDiffer || comparison.datesDiffer) &&
    best.lexical >= UPDATED_SUBJECT &&
    !replacesAnother(claim, best.known)
  )
    return restatement ?? toldElsewhere ?? { class: 'updated', match: best.known, sure: announcesChange(claim) }
  if (renamed) return { class: 'updated', match: renamed.known, sure: false }
  return restatement ?? { class: 'new', sure: false }
}

/** The claim is the longer telling: memory's is the one its words cover, not the other way round. */
function saysMoreOf(claim: VerifiedClaim, known: KnownClaim): boolean {
  return known.subject.length <= claim.subject.length
}

/**
 * What a decision settled, told again without the deciding ("The consortium had until 30 April to
 * complete the purchase" / "Tolley has also agreed to give the consortium until 30 April to complete
 * the purchase"): a claim that takes no stance, in words memory's decision for it nearly all holds.
 * Not the other way round: a decision taken on what memory only told is news.
 */
function toldWithoutItsDecision(claim: VerifiedClaim, { known, cover }: Candidate<KnownClaim>): boolean {
  return (
    cover >= TOLD_AGAIN_COVER &&
    !claim.polarity.negated &&
    claim.polarity.directions.length === 0 &&
    stanceSign(known.polarity) > 0
  )
}
/** Share of a claim's words that memory's telling holds, for the claim to be that telling's content. */
const TOLD_AGAIN_COVER = 0.75

/** Two positive values within half or double of each other: one quantity revised, more likely than two. */
function withinDouble(a: number, b: number): boolean {
  return Math.max(a, b) / Math.min(a, b) <= 2
}

/**
 * A sum or a measure (not a count, which may count another thing) of a unit both give, with no value
 * in common and within half or double of each other: one quantity revised, not two.
 */
function movedAMeasure(claim: VerifiedClaim, known: KnownClaim): boolean {
  if (namesDiffer(claim, known) || sharesValue(claim.statements, known.statements)) return false
  return claim.statements.figures.some(
    (figure) =>
      !figure.earlier &&
      !countsANoun(figure) &&
      figure.value > 0 &&
      known.statements.figures.some(
        (other) => other.unit === figure.unit && other.value > 0 && withinDouble(other.value, figure.value),
      ),
  )
}

/**
 * The rules no judge may break, and only on hard evidence: "confirmed" stands unless a quantity both
 * state has other values in each, with no value in common ("$247m" is not proven other than "$247m,
 * up from $212m"); "updated" stands unless every quantity and date they share is the same; a
 * "contradiction" that is only another figure, in the same stance words, is an update.
 */
function guarded<K extends KnownClaim>(claim: VerifiedClaim, verdict: ClaimClass, match: K | undefined): Classified<K> {
  if (!match || verdict === 'new') return { claim, class: 'new' }
  if (!sameFactPossible(claim, match)) return { claim, class: 'new' }
  const comparison = compareStatements(claim.statements, match.statements)
  const differs = comparison.figuresDiffer || comparison.datesDiffer
  const provablyOther = differs && !sharesValue(claim.statements, match.statements)
  // The same, when it states no figure or date the other does not ("2028, rather than 2027" is not).
  const provablySame =
    comparison.comparable && !differs && unsupportedFigures(claim.statements, match.statements).length === 0
  const against = opposed(claim.polarity, match.polarity)
  if (verdict === 'confirmed' && provablyOther) return { claim, class: against ? 'contradicted' : 'updated', match }
  if (verdict === 'updated' && provablySame) return { claim, class: against ? 'contradicted' : 'confirmed', match }
  if (verdict === 'contradicted' && provablyOther && sameStance(claim.polarity, match.polarity, false))
    return { claim, class: 'updated', match }
  return { claim, class: verdict, match }
}

/**
 * A claim's candidates in memory: the closest that may be about the same thing (`top`, at most
 * MAX_CANDIDATES), and the one memory claim that shares more of its words than any other, however few
 * (`likeliest`; none on a tie, or in a memory so small that a judge answering at random names it
 * often). A judge answering at random seldom names the likeliest; a careful one often does, when a
 * fact is told again in other words that share one or two with the first telling.
 */
function candidatesFor<K extends KnownClaim>(
  claim: VerifiedClaim & { vector?: number[] },
  memory: K[],
  score: (claim: VerifiedClaim & { vector?: number[] }, known: K) => Candidate<K>,
): { top: Candidate<K>[]; likeliest: K | undefined } {
  const scored: Candidate<K>[] = []
  let likeliest: K | undefined
  let most = 0
  for (const known of memory) {
    const candidate = score(claim, known)
    const { lexical, cosine } = candidate
    if (lexical > most) [likeliest, most] = [known, lexical]
    else if (lexical === most) likeliest = undefined
    if (
      lexical > 0 ||
      cosine >= MIN_COSINE ||
      sharesDistinctiveValue(claim.statements, known.statements) ||
      sharesADay(claim.statements, known.statements) ||
      revises(claim, known, lexical)
    )
      scored.push(candidate)
  }
  const about = scored.filter((candidate) => aboutTheSame(claim, candidate))
  about.sort((a, b) => closeness(b) - closeness(a) || b.lexical - a.lexical)
  // The closest claim stating a figure or date this one can be compared with is always shown: among
  // many claims about one plant or one company, that is the one an update replaces.
  const top = about.slice(0, MAX_CANDIDATES)
  const comparable = about.find(({ known }) => compareStatements(claim.statements, known.statements).comparable)
  if (comparable && !top.includes(comparable)) top[MAX_CANDIDATES - 1] = comparable
  // So is the closest stating one of its numbers, whatever noun each puts after it.
  const sameNumber = about.find(({ known }) => sharesValue(claim.statements, known.statements))
  // (With fewer than MAX_CANDIDATES scored, every one is among them already.)
  if (sameNumber && !top.includes(sameNumber)) top[MAX_CANDIDATES - 2] = sameNumber
  // And the closest whose figure or date the claim says it changed ("now aiming for a 2029 start" /
  // "first production in late 2027"), which dates of other things may push out of the closest.
  const revised = about.find(({ known, lexical }) => revises(claim, known, lexical))
  if (revised && !top.includes(revised)) top[MAX_CANDIDATES - 3] = revised
  return { top, likeliest: memory.length >= LIKELIEST_AMONG ? likeliest : undefined }
}

/**
 * Whether a memory claim may be about what `claim` is about, on some evidence a judge's match can rest
 * on: enough words in common (of the two, or of the shorter), close embeddings, a figure of the same
 * unit or a date to compare on a subject they share a word of, or one of its numbers.
 */
function aboutTheSame<K extends KnownClaim>(claim: VerifiedClaim, candidate: Candidate<K>): boolean {
  const { known, lexical, cosine, cover } = candidate
  if (lexical >= MIN_CANDIDATE || cover >= MIN_COVER || cosine >= MIN_COSINE) return true
  if (sharesDistinctiveValue(claim.statements, known.statements) || revises(claim, known, lexical)) return true
  if (sharesAName(claim, known) || sharesADay(claim.statements, known.statements)) return true
  return lexical > 0 && figuresMayMeet(claim.statements, known.statements)
}

/**
 * For a judge's match that shares too little with the claim to be about the same thing by its words
 * ("no sooner than the April-to-June quarter of 2028" / "producing lithium in the fourth quarter of
 * 2027"), what its verdict says must be read in the two: "confirmed" the same figures and dates in
 * the same stance, or the same decision (decidesAlike), "updated" a figure of one unit or a date
 * that changed, "contradicted" opposite stances. Without that, a judge that answers at random would hide a new fact behind any claim of
 * memory; with it, the careful judge's reading across other words stands.
 */
function readsAs(verdict: ClaimClass, claim: VerifiedClaim, candidate: Candidate<KnownClaim>): boolean {
  const { known } = candidate
  const comparison = compareStatements(claim.statements, known.statements)
  const differs = comparison.figuresDiffer || comparison.datesDiffer
  // The same number in both, whatever noun each puts after it, is the judge's evidence ("a workforce
  // of 58" / "employs 58 people"); the guard still holds the rest of their figures to each other.
  if (verdict === 'confirmed')
    return (
      restatesByFigures(claim, candidate, true) ||
      decidesAlike(claim, candidate, differs) ||
      sharesValue(claim.statements, known.statements)
    )
  if (verdict === 'updated') return comparison.comparable && differs && !namesDiffer(claim, known)
  if (verdict !== 'contradicted') return false
  // Opposite stances, or one refusing what the other states ("insurer turns down the pill" / "would
  // cover velorastat"): the stance words of the other may be in no list.
  const [mine, its] = [stanceOf(claim), stanceOf(known)]
  if (opposed(claim.polarity, known.polarity) || (mine !== its && Math.min(mine, its) < 0)) return true
  // A reversal said as one ("reversed course", "a U-turn") turns round whatever was decided before.
  return its !== 0 && (ANNOUNCES_REVERSAL.test(claim.quote) || ANNOUNCES_REVERSAL.test(claim.text))
}

/**
 * A thing memory told as planned, with no stance of its own ("The plans also include a new 120-seat
 * studio theatre", "set aside land for a new primary school"), which the claim says was dropped ("has
 * shelved the 120-seat studio", "scrapping the on-site primary school"): the same thing, named in the
 * same two words.
 */
function undoesWhatWasPlanned(claim: VerifiedClaim, known: KnownClaim): boolean {
  if (known.polarity.negated || stanceOf(known) !== 0) return false
  if (!(undoneAt(claim.quote) || undoneAt(claim.text)) || !PLANNED.test(known.quote)) return false
  // One company's plant in Texas dropped is not its plant in Valencia: each names a place the other
  // does not. An opening in 2027 dropped is not the groundbreaking planned for June 2026.
  const comparison = compareStatements(claim.statements, known.statements)
  if (comparison.figuresDiffer || comparison.datesDiffer) return false
  return sharesAPhrase(claim, known) && !eachNamesAnother(...namesOfBoth(claim, known))
}
/**
 * Its maker takes back what memory told it did, the act named by the noun of memory's verb: "Tamar
 * Renshaw has withdrawn her resignation" / "Tamar Renshaw has resigned"; "the trust withdrew its
 * objection" / "the trust objected to the scheme". The same maker, by a name both give.
 */
function takesBackItsAct(claim: VerifiedClaim, known: KnownClaim): boolean {
  if (known.polarity.negated) return false
  const acts = [claim.quote, claim.text].flatMap((text) => {
    const act = actTakenBack(text)
    return act ? [act] : []
  })
  if (acts.length === 0) return false
  const did = wordTokens(known.quote.toLowerCase()).some(
    (word) => !NOMINAL.test(word) && acts.some(([noun, act]) => word !== noun && stemmer(word) === act),
  )
  return did && sharesAName(claim, known)
}
/** The act a sentence says its maker took back, as its noun and that noun's stem ("her resignation"). */
function actTakenBack(text: string): [string, string] | undefined {
  const found = undoneAt(text)
  if (!found) return undefined
  const noun = /^\s+(?:its|their|his|her|our)\s+(\p{L}+)/u.exec(text.slice(found.index + found[0].length))?.[1]
  if (!noun || !NOMINAL.test(noun)) return undefined
  return [noun.toLowerCase(), stemmer(noun.toLowerCase())]
}
/** A noun made of a verb ("resignation", "objection", "withdrawal", "commitment"). */
const NOMINAL = /(?:ation|ition|tion|sion|ment|al)s?$/u

/**
 * A deal one side walked away from, after memory told it agreed: "Saltwick Homes has pulled out of its
 * deal to buy the building" / "agreed to sell the police station in Fenwold Market to Saltwick
 * Homes"; "Morvane walked away from its deal with Veltmar Wind" / "has signed a preferred supplier
 * agreement with Veltmar Wind". A name both give, other than the story's own subject, is the deal's
 * other side, however differently each tells what was traded.
 */
function undoesADeal(claim: VerifiedClaim, known: KnownClaim): boolean {
  if (known.polarity.negated || stanceOf(known) <= 0 || !AGREED.test(known.quote)) return false
  return (undoesADealIn(claim.quote) || undoesADealIn(claim.text)) && sharesAName(claim, known)
}
/** The deal is what was dropped: the undoing's object ("pulled out of its deal", "withdrew its offer"). */
function undoesADealIn(text: string): boolean {
  const found = undoneAt(text)
  return found !== undefined && DEAL.test(text.slice(found.index + found[0].length))
}
const DEAL =
  /^\s+(?:(?:its|their|his|her|the|a|an)\s+)?(?:[\p{L}-]+\s+)?(?:deals?|agreements?|contracts?|purchase|takeover|bid|offer|partnership|talks|arrangement|sale)\b/iu
const AGREED = /\b(?:agreed|agrees|signed|signs|chose|chosen|selected|preferred bidder|deal|agreement|contract)\b/iu

/**
 * Where a sentence says its maker dropped something, if it says so and not that it did not: "has
 * shelved", "revoked its closure order", "called off", not "has not scrapped" or "will never abandon".
 */
function undoneAt(text: string): RegExpExecArray | undefined {
  const found = UNDOES.exec(text)
  if (!found || NOT_BEFORE.test(text.slice(Math.max(0, found.index - 24), found.index))) return undefined
  return found
}
/** What its maker does to a plan or an order it drops (not what another does to it: "refused", "turned down"). */
const UNDOES =
  /\b(?:shelv(?:e|es|ed|ing)|scrap(?:s|ped|ping)?|abandon(?:s|ed|ing)?|drop(?:s|ped|ping)\b|drop(?= (?:its|their|the|plans?)\b)|ditch(?:es|ed|ing)?|ax(?:e|es|ed|ing)|call(?:s|ed|ing)? off|pull(?:s|ed|ing)? out of|walk(?:s|ed|ing)? away from|withdr(?:aw|aws|ew|awn|awing)|revok(?:e|es|ed|ing)|cancel(?:s|led|ling|ed|ing)?|no longer|(?:chosen|chose|decided) not to|mothball(?:s|ed|ing)?)\b/iu
const NOT_BEFORE = /\b(?:not|never|no)\b[^.;,]*$|n['’]t\s+(?:\p{L}+\s+)?$/iu
/** Memory told the thing as planned, proposed or promised, or as in force. */
const PLANNED =
  /\b(?:plans?|planned|planning to|proposals?|proposed|includes?|including|intends?|pledged?|promised?|set aside|earmarked|to build|will build|would build|prepar(?:ing|es?) (?:for|to)|wants? to|aims? to|in (?:force|place|effect))\b/iu

/** Words by which a sentence says a decision was turned round, whichever way it went. */
const ANNOUNCES_REVERSAL =
  /\b(?:revers(?:e|es|ed|ing) (?:course|(?:its|their|the|that|this) (?:own )?(?:decision|plans?|position|stance|vote))|u-?turn(?:ed)?|about-turn|volte-face|backtrack(?:ed|s)?|climb-?down|changed (?:its|their|his|her) mind|change of heart|went back on|rowed back|(?:walk(?:s|ed|ing)? back|rescind(?:s|ed|ing)?|revers(?:e|es|ed|ing)|overturn(?:s|ed|ing)?|withdr(?:aw|aws|ew|awn|awing)|(?:go|goes|going|gone) back on) (?:its|their|his|her) (?:own )?(?:[\p{L}-]+ )?(?:decision|promise|pledge|commitment|assurance|guarantee|vote|approval|support|backing))\b/iu

/**
 * Words by which one body turns round another's decision: a court quashes it or sets it aside, an
 * inspector or a tribunal allows the appeal against it ("allowed Carrick Homes' appeal", "upheld the
 * challenge"). A dismissed appeal leaves the decision standing.
 */
const OVERTURNED =
  /\b(?:quash(?:es|ed|ing)?|set aside(?= (?:the|its|their|that|this|a|an) (?:[\p{L}-]+ )?(?:consent|permission|approval|decision|ruling|permit|order|refusal|licen[cs]e)\b)|str(?:ike|ikes|uck|iking) down|annul(?:s|led|ling)?|(?:allow(?:s|ed|ing)?|uph(?:old|olds|eld|olding)) (?:the|an|its|their|(?:\p{Lu}[\p{L}'’-]*\s)*\p{Lu}[\p{L}-]*(?:['’]s?)) (?:[\p{L}-]+ )?(?:appeal|challenge|judicial review))\b/iu
/**
 * Before the words of overturning, what makes them not (yet) done: "asked the court to quash",
 * "refused to quash", or told as background ("after the High Court struck down").
 */
const NOT_DONE = /(?:\bto|\bnot|n['’]t|\bnever)\s+$|\b(?:after|since|following|because)\b/iu

/** The claim says one body turned round another's decision (OVERTURNED), in its own main clause. */
function overturnsADecision(claim: VerifiedClaim): boolean {
  return [claim.quote, claim.text].some((text) => {
    const found = OVERTURNED.exec(text)
    return found !== null && !NOT_DONE.test(text.slice(0, found.index))
  })
}

/**
 * The same decision told again: both take one stance, on a subject they share a word of, naming no
 * one the other does not, with no figure the other lacks and none that differs ("the council
 * approved the stadium in April" / "councillors nevertheless approved the scheme"; "the permit
 * remains in force" / "the board voted to grant a mining permit").
 */
function decidesAlike(claim: VerifiedClaim, { known, lexical }: Candidate<KnownClaim>, differs: boolean): boolean {
  if (lexical === 0 || differs || namesDiffer(claim, known)) return false
  // What "remains in force" or "still stands" holds still is what was decided for it.
  const continues =
    !claim.polarity.negated && (ANNOUNCES_CONTINUITY.test(claim.quote) || ANNOUNCES_CONTINUITY.test(claim.text))
  const stance = stanceSign(claim.polarity) || (continues ? 1 : 0)
  if (stance === 0 || stance !== stanceSign(known.polarity) || opposed(claim.polarity, known.polarity)) return false
  return claim.statements.figures.every((figure) =>
    known.statements.figures.some((other) => statesFigure(figure, other)),
  )
}

/** A decision the claim dates before the news ("in April", "last month", "earlier this year", "three weeks ago"). */
function datesADecisionBefore(claim: VerifiedClaim): boolean {
  if (!(BACKDATED.test(claim.quote) || BACKDATED.test(claim.text))) return false
  return stanceSign(claim.polarity) !== 0 && decides(claim.quote)
}

/**
 * A decision told as background (datesADecisionBefore): it takes the stance memory's decision takes
 * on a thing both name, and states nothing memory's does not (decidesAlike).
 */
function recallsADecision(claim: VerifiedClaim, candidate: Candidate<KnownClaim>): boolean {
  const comparison = compareStatements(claim.statements, candidate.known.statements)
  const differs = comparison.figuresDiffer || comparison.datesDiffer
  return decidesAlike(claim, candidate, differs) && sharesAThing(claim, candidate.known)
}
const BACKDATED = new RegExp(
  String.raw`\b(?:in|since|back in|earlier in) (?:${MONTH_NAMES.join('|')})\b|\blast (?:month|year|spring|summer|autumn|winter)\b|\bearlier this (?:month|year)\b|\b(?:\p{L}+ )?(?:weeks|months|years) ago\b`,
  'iu',
)

/**
 * A claim's stance (stanceSign); a rise or a fall of nothing it counts is one too ("Corvane drops
 * bid to widen migraine pill to teenagers").
 */
function stanceOf(claim: { polarity: Polarity; statements: Statements }): number {
  const stance = stanceSign(claim.polarity)
  if (stance !== 0 || claim.statements.figures.length > 0) return stance
  const trend = claim.polarity.directions.find((direction) => direction.startsWith('trend:'))
  return trend === undefined ? 0 : trend.endsWith(':up') ? 1 : -1
}

/**
 * A figure set against what was said of it before ("fewer than ministers forecast", "one fewer than
 * the company had warned").
 */
const AGAINST_WHAT_WAS_SAID = String.raw`(?:fewer|less|more|lower|higher) than (?:the )?[^.;,]{0,40}?\b(?:forecast|warned|predicted|promised|estimated|expected|planned|announced|proposed)`
/**
 * A verb of a quantity moving, then "to" and the figure it is now ("cut the planned capacity of the
 * main house to 612", "has shrunk to 31 vessels", "the island is down to five crossings").
 */
const MOVED_TO = String.raw`(?:shr[iau]nks?|shrunk|trim(?:s|med)?|cuts?|reduc(?:e|es|ed)|lower(?:s|ed)?|rais(?:e|es|ed)|increas(?:e|es|ed)|gr[eo]w(?:s|n)?|f[ae]ll(?:s|en)?|drop(?:s|ped)?|slash(?:es|ed)?|(?:scaled|pared) back|ris(?:e|es|en)|rose|climb(?:s|ed)?|(?:is|are|was|were) (?:down|up))\b[^.;,]{0,60}?\bto(?=\s+(?:(?:about|around|some|just|nearly|almost|only) )?(?:[\p{N}£$€]|(?:${NUMBER_WORDS.join('|')}|a (?:dozen|hundred|thousand))\b))`
/** What a change leaves ("That will leave it with a workforce of about 255"). */
const LEAVES_WITH = String.raw`leaves? (?:it|them|the [\p{L}-]+) with`
/**
 * A plan told as what was aimed at before ("Ministers had been working towards opening the first
 * new block in spring 2031"), or a date as the earliest now ("no sooner than").
 */
const AIMED_BEFORE = 'had been (?:working|aiming|planning|hoping) (?:towards|to|for)|no (?:sooner|earlier) than'

/**
 * Words by which a sentence says that a figure or date of it replaced an earlier one ("has risen to
 * £158m", "now expects", "in June 2029 rather than December 2028", "the latest programme", "will not
 * be finished until October 2027").
 */
const ANNOUNCES_CHANGE = new RegExp(
  String.raw`\b(?:now|no longer|rather than|instead of|revised|latest|pushed back|put back|delayed|brought forward|later than|earlier than|up from|down from|not\b[^.;]{0,60}?\b(?:until|before|till)|previously|originally|first (?:planned|proposed|announced)|had (?:been )?(?:due|expected|planned|scheduled|intended|hoped)|postponed|deferred|rescheduled|extended (?:to|until|by)|moved (?:back|forward|from)|slip(?:s|ped|ping)? (?:to|into|back)|unlikely\b[^.;]{0,60}?\b(?:until|before)|(?:new|initial) (?:target|date|deadline|timetable|estimate|forecast|figure|total)|than (?:(?:first|originally|previously|initially) )?(?:thought|expected|estimated|planned|forecast|feared)|${AGAINST_WHAT_WAS_SAID}|${MOVED_TO}|${LEAVES_WITH}|${AIMED_BEFORE})\b`,
  'iu',
)

/**
 * The claim says that something changed: ANNOUNCES_CHANGE, or a rise or a fall. Asked of each claim
 * against every memory claim, so read once a claim.
 */
function announcesChange(claim: VerifiedClaim): boolean {
  let announced = ANNOUNCED.get(claim)
  if (announced === undefined) {
    announced =
      claim.polarity.directions.some((direction) => direction.startsWith('trend:')) ||
      ANNOUNCES_CHANGE.test(claim.quote) ||
      ANNOUNCES_CHANGE.test(claim.text)
    ANNOUNCED.set(claim, announced)
  }
  return announced
}

const ANNOUNCED = new WeakMap<VerifiedClaim, boolean>()

/**
 * Whether `claim` may be the revision of `known`: it says that something changed (ANNOUNCES_CHANGE, or
 * a rise or a fall), and a figure of a unit both state moved by no more than half or double, or a
 * date by three years at most ("could not open before 2033" / "expected to open in 2030"), on a
 * subject they share a word of or beside memory's own date; each names no one the other does not
 * (namesDiffer). A revision of a cost, a headcount or an opening date is seldom written in the words
 * of the figure it replaces ("the bill for the ground climbs to £158m" / "the club puts the cost of
 * the build at £142m").
 */
function revises(claim: VerifiedClaim, known: KnownClaim, lexical: number): boolean {
  if (!announcesChange(claim) || namesDiffer(claim, known) || replacesAnother(claim, known)) return false
  const { figures, dates } = known.statements
  // A count it gives beside memory's own ("210 kerbside spots rather than the 340 first proposed"),
  // whatever noun each counts.
  const besideMemory = sharesValue(claim.statements, known.statements)
  const sameKind = (figure: Figure, other: Figure) =>
    (other.unit === figure.unit && figure.unit !== '') ||
    (besideMemory && countsANoun(figure) && countsANoun(other)) ||
    namedBefore(claim, figure, other, lexical) ||
    // A count said to have moved, whatever noun each counts, on a subject they share words of ("the
    // island is down to five crossings each way a day" / "the island has six sailings each way every
    // day", "34 posts went, one fewer than the company had warned" / "as many as 35 jobs could go"):
    // a story names one headcount or one timetable in many words, and says when it changed.
    (lexical >= MIN_CANDIDATE && countsANoun(figure) && countsANoun(other) && other.unit !== '')
  // (What the quantity was, "rather than the four first proposed", moved nothing now.)
  const moved = claim.statements.figures.some(
    (figure) =>
      !figure.earlier &&
      figures.some(
        (other) =>
          sameKind(figure, other) &&
          // Shares are many in one story (of a market, of votes, of capacity): one needs a word in common,
          // and may move any way within its hundred ("stood at 21%" / "now close to half full, at 47%").
          (figure.unit !== '%' || lexical >= MIN_CANDIDATE) &&
          other.value !== figure.value &&
          other.value > 0 &&
          figure.value > 0 &&
          (figure.unit === '%' || withinDouble(other.value, figure.value)),
      ),
  )
  // A date memory does not give, near one it does ("the second quarter of 2028, rather than the final
  // quarter of 2027").
  const besideMemoryDate = claim.statements.dates.some((date) => dates.some((other) => sameDate(date, other)))
  const rescheduled =
    (lexical > 0 || besideMemoryDate) &&
    claim.statements.dates.some(
      (date) => !dates.some((other) => sameDate(date, other)) && dates.some((other) => nearDates(date, other)),
    )
  return moved || rescheduled
}

/**
 * The claim says what it replaces, and that is not what `known` states: "until 30 September, rather
 * than closing it at the end of June" revises a June date, not memory's "consultation runs until 20
 * March"; "45 posts, down from 60" revises 60, not memory's 210 staff. Memory's value of the kind
 * replaced is neither the claim's earlier value nor its value now.
 */
function replacesAnother(claim: VerifiedClaim, known: KnownClaim): boolean {
  const { figures, dates } = claim.statements
  const otherFigure = figures.some((earlier) => {
    if (!earlier.earlier) return false
    const theirs = known.statements.figures.filter((figure) => figure.unit === earlier.unit)
    const mine = figures.filter((figure) => figure.unit === earlier.unit)
    return theirs.length > 0 && !theirs.some((figure) => mine.some((own) => rangesMeet(own, figure)))
  })
  if (otherFigure) return true
  const replaced = earlierDates(claim)
  return (
    replaced.length > 0 &&
    known.statements.dates.length > 0 &&
    !known.statements.dates.some((date) => [...replaced, ...dates].some((own) => sameDate(own, date)))
  )
}

/**
 * `claim` gives a date of `known` as the one it replaces, and another as the date now ("first logged
 * in on 9 January, not in mid-February as the company had said" / "first got into its network on 14
 * February"): that date changed.
 */
function redates(claim: VerifiedClaim, known: KnownClaim): boolean {
  const replaced = earlierDates(claim)
  const theirs = known.statements.dates
  if (!replaced.some((date) => theirs.some((other) => sameDate(date, other)))) return false
  const now = claim.statements.dates.filter((date) => !replaced.includes(date))
  return now.some((date) => !theirs.some((other) => sameDate(date, other)))
}

/** The dates a claim says it replaces: those after "rather than", "instead of" or a contrasting ", not". */
function earlierDates(claim: VerifiedClaim): string[] {
  let dates = EARLIER_DATES.get(claim)
  if (!dates) {
    const text = claim.quote || claim.text
    const at = text.search(REPLACED)
    dates = at < 0 ? [] : extractStatements(text.slice(at)).dates
    EARLIER_DATES.set(claim, dates)
  }
  return dates
}
const EARLIER_DATES = new WeakMap<VerifiedClaim, string[]>()
const REPLACED = /\b(?:rather than|instead of)\b|,\s+not\b/iu

/**
 * A number that a change sentence gives bare names its quantity before it, as the thing that moved
 * ("Its roll is down to 389", "the number of premises falls to 13,050"): the same quantity as memory's
 * bare number on a subject they share words of ("Its roll stands at 412"), or as memory's count of the
 * thing the claim names ("a roll of 412").
 */
function namedBefore(claim: VerifiedClaim, figure: Figure, other: Figure, lexical: number): boolean {
  if (figure.unit !== '' || isTimeOfDay(other) || isShareInWords(other)) return false
  if (other.unit === '') return lexical >= MIN_CANDIDATE
  if (!countsANoun(other)) return false
  const subject = new Set(claim.subject)
  return subjectTerms(other.unit).some((term) => subject.has(term))
}

/**
 * A revision sure enough to stand against a judge's "new": a sum of money or a measure of the unit
 * memory gives it in (not a count, which may count another thing), said to have changed, on a subject
 * they share words of ("the project's price tag has risen to $1.45 billion" / "put the cost at $1.2
 * billion").
 */
function revisesAMeasure(claim: VerifiedClaim, { known, lexical }: Candidate<KnownClaim>): boolean {
  if (lexical < MIN_CANDIDATE) return false
  return claim.statements.figures.some(
    (figure) =>
      !countsANoun(figure) &&
      known.statements.figures.some((other) => other.unit === figure.unit && other.value !== figure.value),
  )
}

/**
 * Figures that may state one quantity: of a common unit or date, sharing a value, or both counts of
 * things named by nouns, which may be one thing in other words ("seats" / "spectators").
 */
function figuresMayMeet(a: Statements, b: Statements): boolean {
  return (
    compareStatements(a, b).comparable ||
    sharesValue(a, b) ||
    sharesAShare(a, b) ||
    (a.figures.some(countsANoun) && b.figures.some(countsANoun)) ||
    hoursOfTheDay(a, b) ||
    hoursOfTheDay(b, a)
  )
}

/**
 * Times of day and a length of time within a day may tell one day's hours ("will close between 10pm
 * and 8am" / "will open 24 hours a day", "runs until 11pm" / "runs 18 hours a day").
 */
function hoursOfTheDay(a: Statements, b: Statements): boolean {
  return (
    a.figures.some(isTimeOfDay) &&
    b.figures.some((figure) => figure.unit === 'min' && figure.value > 0 && figure.value <= MINUTES_A_DAY)
  )
}
const MINUTES_A_DAY = 1440

function closeness<K>(candidate: Candidate<K>): number {
  return Math.max(candidate.lexical, candidate.cosine, candidate.cover / 2)
}

/**
 * Two claims that both state figures are proven to be two facts only when their figures are of kinds
 * that cannot be one quantity: no common unit, date or value, and not both counts of things named by
 * nouns, which may be one quantity in other words ("22,500 spectators" / "24,000 seats"), as may the
 * same number under another noun ("420 positions" / "420 people").
 */
function sameFactPossible(claim: VerifiedClaim, known: KnownClaim): boolean {
  const bothStateFigures = claim.statements.figures.length > 0 && known.statements.figures.length > 0
  return !bothStateFigures || figuresMayMeet(claim.statements, known.statements)
}

/**
 * Both name someone or something (NAMES) other than the story's own subject: "Braymoor Civil,
 * appointed as the scheme's principal builder" / "named Braymoor Civil as the main contractor".
 */
function sharesAName(a: { text: string; quote: string }, b: { text: string; quote: string }): boolean {
  const theirs = NAMES.get(b)
  return theirs !== undefined && [...(NAMES.get(a) ?? [])].some((name) => theirs.has(name))
}

/**
 * Both take their stance on one thing (stanceThemes): "Wrenfield Grocers has cancelled its agreement
 * with the Tovington robot maker" / "has signed a five-year agreement with Quillon Robotics".
 */
function sharesATheme(a: { text: string; quote: string }, b: { text: string; quote: string }): boolean {
  const theirs = themesOf(b)
  return [...themesOf(a)].some((theme) => theirs.has(theme))
}

const THEMES = new WeakMap<object, ReadonlySet<string>>()
function themesOf(item: { text: string; quote: string }): ReadonlySet<string> {
  let themes = THEMES.get(item)
  if (!themes) {
    themes = new Set([item.text, item.quote].filter(Boolean).flatMap((wording) => [...stanceThemes(wording)]))
    THEMES.set(item, themes)
  }
  return themes
}

/** Each names someone or something (NAMES) the other does not. */
function namesDiffer(a: { text: string; quote: string }, b: { text: string; quote: string }): boolean {
  // A name both give anchors one thing, whatever else each names ("births at Hollins General" /
  // "move them from Hollins General to Westbridge Royal").
  const [left, right] = namesOfBoth(a, b)
  return ![...left].some((name) => right.has(name)) && eachNamesAnother(left, right)
}

/** Each gives a name the other does not ("its plant in Texas" / "its plant in Valencia"), whatever both give. */
function eachNamesAnother(left: ReadonlySet<string>, right: ReadonlySet<string>): boolean {
  const missing = (from: ReadonlySet<string>, other: ReadonlySet<string>) => [...from].some((name) => !other.has(name))
  return missing(left, right) && missing(right, left)
}

function namesOfBoth(
  a: { text: string; quote: string },
  b: { text: string; quote: string },
): [Set<string>, Set<string>] {
  return [NAMES.get(a) ?? namesIn(a, new Set()), NAMES.get(b) ?? namesIn(b, new Set())]
}

/**
 * The names each claim of a classification gives, read once (`readNames`): capitalised words, not
 * dates. A sentence's first word is a name only when the run's texts never write it in lower case
 * ("Voltfjord will commission", not "Councillors voted").
 */
const NAMES = new WeakMap<object, Set<string>>()

function readNames(items: Array<{ text: string; quote: string }>): void {
  const lower = new Set<string>()
  for (const { text, quote } of items) {
    for (const word of nameWords(`${text} ${quote}`)) if (word === word.toLowerCase()) lower.add(word)
  }
  const named = items.map((item) => namesIn(item, lower))
  // A name most claims give is the story's own subject ("Corvane", "Rovers"), which a sentence as
  // often calls "the company" or "the club": it tells no two things apart.
  const holders = new Map<string, number>()
  for (const names of named) for (const name of names) holders.set(name, (holders.get(name) ?? 0) + 1)
  const ownSubject = Math.max(MIN_SUBJECT_CLAIMS, items.length * SUBJECT_SHARE)
  items.forEach((item, index) => {
    NAMES.set(item, new Set([...(named[index] ?? [])].filter((name) => (holders.get(name) ?? 0) < ownSubject)))
  })
}

/**
 * The things each claim of a classification names, less those most claims name, the story's own
 * subject ("Harbrook Mutual", "the harbourside tram", "the merger"): its two-word names
 * (subjectPhrases), and the words it writes in lower case less the words of deciding (`things`).
 * Read for every claim the first time two are compared (only a decision turned round asks), not for
 * each classification: most never need them.
 */
type Named = { phrases: ReadonlySet<string>; things: ReadonlySet<string> }
type ThingBook = (item: object) => Named
const THINGS = new WeakMap<object, ThingBook>()

function readThings(items: Array<{ text: string; quote: string }>, stem: Stem): void {
  let read: Map<object, Named> | undefined
  const book: ThingBook = (item) => {
    read ??= thingsOf(items, stem)
    return read.get(item) ?? { phrases: new Set(), things: new Set() }
  }
  for (const item of items) THINGS.set(item, book)
}

function thingsOf(items: Array<{ text: string; quote: string }>, stem: Stem): Map<object, Named> {
  const wordings = ({ text, quote }: { text: string; quote: string }) => [text, quote].filter(Boolean)
  const phrases = items.map((item) => new Set(wordings(item).flatMap((wording) => subjectPhrases(wording, stem))))
  const things = items.map((item) => new Set(wordings(item).flatMap((wording) => thingTerms(wording, stem))))
  const ownSubject = Math.max(MIN_SUBJECT_CLAIMS, items.length * SUBJECT_SHARE)
  const lessOwnSubject = (sets: Set<string>[]) => {
    const holders = new Map<string, number>()
    for (const held of sets) for (const word of held) holders.set(word, (holders.get(word) ?? 0) + 1)
    return sets.map((held) => new Set([...held].filter((word) => (holders.get(word) ?? 0) < ownSubject)))
  }
  const [phrasesHeld, thingsHeld] = [lessOwnSubject(phrases), lessOwnSubject(things)]
  return new Map(
    items.map((item, index) => [
      item,
      { phrases: phrasesHeld[index] ?? new Set<string>(), things: thingsHeld[index] ?? new Set<string>() },
    ]),
  )
}

/**
 * A decision is turned round on the thing it was about, named by a common noun ("the $300 million
 * grant", "its agreement to run services") or in two words ("its Dresden fab"). Two sentences that
 * share only names, a place ("over the River Wendle at Kilverton", "at Marlpit Business Park"), the
 * words of deciding ("decision", "plans") or the story's own subject ("the merger") are about two
 * things ("shelved a temporary footbridge" / "the span opened in 1891"; "put its plans for a plant on
 * hold" / "granted planning permission"), unless the claim names a decision as the thing turned round.
 */
function sharesAThing(claim: VerifiedClaim, known: { text: string; quote: string }): boolean {
  if (NAMES_A_DECISION.test(claim.quote) || NAMES_A_DECISION.test(claim.text)) return true
  const book = THINGS.get(claim)
  if (!book) return false
  const theirs = book(known).things
  if ([...book(claim).things].some((term) => theirs.has(term)) || sharesAPhrase(claim, known)) return true
  const facilities = facilitiesOf(known)
  return [...facilitiesOf(claim)].some((facility) => facilities.has(facility))
}

/**
 * The buildings and sites a claim names: a name that ends in the noun of what it is ("Alderbrook
 * House", "Carrick Lane Works", "Tolsey Moor Depot"). Such a name is the thing a decision closes,
 * sells or keeps, though a name is otherwise a party or a place (sharesAThing).
 */
function facilitiesOf(item: { text: string; quote: string }): ReadonlySet<string> {
  let found = FACILITIES.get(item)
  if (!found) {
    found = new Set(
      [item.text, item.quote].flatMap((wording) => [...wording.matchAll(FACILITY)]).map(([name]) => name.toLowerCase()),
    )
    FACILITIES.set(item, found)
  }
  return found
}
const FACILITIES = new WeakMap<object, ReadonlySet<string>>()
const FACILITY = new RegExp(
  String.raw`(?:\p{Lu}[\p{L}'’-]+\s+)+(?:${(
    'House Lodge Court Hall Centre Center Station School Academy College Hospital Infirmary Library Museum ' +
    'Pier Bridge Works Plant Depot Factory Mill Theatre Playhouse Stadium Ground Farm Quarry Mine Airport ' +
    'Terminal Tower Building Campus Unit Ward Wing Reservoir Baths Pool Market Arcade'
  )
    .split(' ')
    .join('|')})\b`,
  'gu',
)

function thingTerms(text: string, stem: Stem): string[] {
  return subjectTerms(text.replace(DECIDING, ' ').replace(NAME_WORD, ' '), stem)
}

/** A word written with a capital: a name, or a sentence's first word. */
const NAME_WORD = /(?<![\p{L}\p{N}])\p{Lu}[\p{L}\p{N}'’-]*/gu

/**
 * Words of deciding before what was decided ("plans for a footbridge", "a decision to scrap", "the
 * planned sidings", "planning permission"): the thing is named after them. "Rejected the plan" names
 * the plan.
 */
const DECIDING = /\b(?:(?:plans?|decisions?|proposals?|moves?|bids?)\s+(?:for|to|by|of|on)|plann(?:ed|ing))\b/giu

/**
 * A decision named as the thing turned round ("the original approval was quashed", "the ministerial
 * sign-off … has since been withdrawn"): memory's decision is that thing, in whatever words it told
 * it. "A decision to scrap the sidings" and "a decision by the council to grant" name what was decided.
 */
const NAMES_A_DECISION = new RegExp(
  String.raw`\b(?:${[...DECISION_NOUNS, 'sign-off', 'go-ahead'].join('|')})\b(?!\s+(?:to|by)\b)`,
  'iu',
)

/** Both name a thing in the same two words (THINGS), other than the story's own subject. */
function sharesAPhrase(a: object, b: object): boolean {
  const book = THINGS.get(a)
  if (!book) return false
  const theirs = book(b).phrases
  return [...book(a).phrases].some((phrase) => theirs.has(phrase))
}

/** A name in this many claims, and this share of them, is the story's subject. */
const MIN_SUBJECT_CLAIMS = 3
const SUBJECT_SHARE = 0.25

/**
 * A clause set off by commas that tells more about what the sentence names (", which is headquartered
 * in Tallisford,", ", who chairs the residents' association,"): it does not say which thing is meant,
 * so a name in it tells no two facts apart.
 */
const NON_RESTRICTIVE = /,\s(?:which|who|whose|where)\b[^,;]*,/gu
/**
 * Who said it, after the fact it tells (", the agency confirmed.", ", chief executive Simon Ferrier
 * said on Monday.", ", according to the council."): a source, not which thing the fact is about.
 */
const ATTRIBUTION =
  /,\s(?:according to [^,;]+|[^,;]{1,60}?\s(?:said|says|confirmed|confirms|announced|added|told [^,;]{1,40}?)(?:\s(?:on|in|at|this|last|yesterday|today|earlier|late)\b[^,;]*)?)[.!?]?[\s"”’']*$/u

function namesIn({ text, quote }: { text: string; quote: string }, common: ReadonlySet<string>): Set<string> {
  const names = new Set<string>()
  for (const sentence of new Set([text, quote])) {
    nameWords(sentence.replace(NON_RESTRICTIVE, ',').replace(ATTRIBUTION, '.')).forEach((word, index) => {
      const lower = word.toLowerCase()
      if (!/^\p{Lu}/u.test(word) || CALENDAR.test(lower) || STOPWORDS.has(lower)) return
      if (index > 0 || (!common.has(lower) && opensWithName(sentence) && !isPluralNoun(word))) names.add(lower)
    })
  }
  return names
}

/**
 * `claim` states a figure of `known` and, in the same unit, one `known` does not, as the quantity now:
 * "24,500, up from 21,000" changes memory's 21,000; "three stations, rather than the four first
 * proposed" tells memory's three again, with what it was before.
 */
function restatesAndChanges(claim: Statements, known: Statements): boolean {
  for (const unit of new Set(claim.figures.map((figure) => figure.unit))) {
    // A number with no noun ("at 3.4 million rather than 1.2 million") counts what memory's figure of
    // that value counts, when the value is too precise to meet by chance.
    const theirs = new Set(
      known.figures
        .filter((figure) => figure.unit === unit || (unit === '' && countsANoun(figure) && isPrecise(figure.value)))
        .map((figure) => figure.value),
    )
    const ours = claim.figures.filter((figure) => figure.unit === unit)
    const now = ours.filter((figure) => !figure.earlier).map((figure) => figure.value)
    if (ours.some(({ value }) => theirs.has(value)) && now.some((value) => !theirs.has(value))) return true
  }
  return false
}

/** A count of a hundred or more, or a figure given to a decimal: precise enough not to meet twice by chance. */
function isPrecise(value: number): boolean {
  return Math.abs(value) >= 100 || !Number.isInteger(value)
}

/**
 * A figure both state that is unlikely to meet twice by chance: a sum of money or a measure of the
 * same unit, or a count of a hundred or more ("£142m" / "142 million pounds", "3,200 people" / "a
 * payroll of 3,200"), however few words the two sentences share. Not a share in words: "a fifth of
 * demand" is no restatement of "21 per cent full" without words of one subject; nor a time of day.
 */
function sharesDistinctiveValue(a: Statements, b: Statements): boolean {
  return a.figures.some((figure) =>
    b.figures.some(
      (other) =>
        // "Fall by 4.2", "3,200 people": a precise value.
        (other.value === figure.value && !isShareInWords(figure) && !isTimeOfDay(figure) && isPrecise(figure.value)) ||
        (statesFigure(figure, other) &&
          !countsANoun(figure) &&
          !isTimeOfDay(figure) &&
          !isShareInWords(figure) &&
          !isShareInWords(other)),
    ),
  )
}

/** The same count of the same thing ("the same seven cheeses" / "seven of its cheeses"). */
function sharesANamedCount(a: Statements, b: Statements): boolean {
  return a.figures.some(
    (figure) =>
      figure.unit !== '' &&
      countsANoun(figure) &&
      b.figures.some((other) => other.unit === figure.unit && other.value === figure.value),
  )
}

/** A share in words one states and the percentage it rounds the other states ("three in five" / "58%"). */
function sharesAShare(a: Statements, b: Statements): boolean {
  // Not two shares in words: "a third of its sales" and "a third of the cost" meet by chance.
  return a.figures.some((figure) =>
    b.figures.some((other) => isShareInWords(figure) !== isShareInWords(other) && statesFigure(figure, other)),
  )
}

/**
 * A month, a day or a quarter of a written year both give at the same precision ("October 2027"), or
 * a day of a month that writes no year ("Sept. 8"): a story's year is one.
 */
function sharesExactDate(a: Statements, b: Statements): boolean {
  const exact = (date: string) => (isYearless(date) ? date.length >= 10 : date.length >= 7)
  return a.dates.some((date) => exact(date) && b.dates.includes(date))
}

/**
 * A day both give, with its year or without ("heard on 14 May 2026" / "a hearing set for Thursday 14
 * May"): a story names few days, and a day is what it names to say when one thing happens.
 */
function sharesADay(a: Statements, b: Statements): boolean {
  return sharesADateTo(a, b, /^(?:\d{4}|XXXX)-\d{2}-\d{2}$/u)
}

/** A month both give, one of them maybe to the day ("their last day is 30 September" / "until the end of September"). */
function sharesAMonth(a: Statements, b: Statements): boolean {
  return sharesADateTo(a, b, /^(?:\d{4}|XXXX)-\d{2}/u)
}

/** A date both give that each writes at least as precisely as `precision` says, and that agree. */
function sharesADateTo(a: Statements, b: Statements, precision: RegExp): boolean {
  const precise = (date: string) => precision.test(date)
  return a.dates.some((date) => precise(date) && b.dates.some((other) => precise(other) && sameDate(date, other)))
}

/**
 * Each counts things named by nouns, in numbers the other does not give ("310 junior members" / "280
 * members"): the words before a noun may be read as what is counted, so this is no agreement.
 */
function countsDiffer(a: Statements, b: Statements): boolean {
  const [mine, theirs] = [a.figures.filter(countsANoun), b.figures.filter(countsANoun)]
  // ("Some 2,140 people" is a count "more than 2,100 people" allows.)
  return mine.length > 0 && theirs.length > 0 && !theirs.some((figure) => mine.some((own) => rangesMeet(own, figure)))
}

/** Some figure of one is numerically a figure of the other, whatever each says it counts. */
function sharesValue(a: Statements, b: Statements): boolean {
  const values = new Set(a.figures.map((figure) => figure.value))
  // Or one of its own unit within the range a rough figure stands for ("just over £21m" / "£21.4m").
  return b.figures.some((figure) => values.has(figure.value) || a.figures.some((mine) => figuresMeet(mine, figure)))
}

/**
 * A claim is worded twice: in the model's words and in its quote, the source's own words. Two claims
 * are as close as their closest wordings: a changed figure restated by a page in the words memory
 * quoted before is plainly the same subject, however the model paraphrased it.
 */
function subjectWordings(claim: { text: string; quote: string; subject: string[] }, stem: Stem): string[][] {
  const quote = claim.quote.trim()
  return quote && quote !== claim.text.trim() ? [claim.subject, subjectTerms(quote, stem)] : [claim.subject]
}

/** The closest pair of wordings: by weighted Jaccard, and by the shorter one's share covered. */
function bestOverlap(
  a: string[][],
  b: string[][],
  weight: (term: string) => number,
): { lexical: number; cover: number } {
  let lexical = 0
  let cover = 0
  for (const left of a) {
    for (const right of b) {
      const { shared, union, smaller } = weightedOverlap(left, right, weight)
      if (union > 0) lexical = Math.max(lexical, shared / union)
      if (smaller > 0) cover = Math.max(cover, shared / smaller)
    }
  }
  return { lexical, cover }
}

function idfWeights(documents: string[][]): (term: string) => number {
  const frequency = new Map<string, number>()
  for (const terms of documents) for (const term of new Set(terms)) frequency.set(term, (frequency.get(term) ?? 0) + 1)
  const total = documents.length
  return (term) => Math.log(1 + total / (frequency.get(term) ?? 1))
}

function weightedOverlap(
  a: string[],
  b: string[],
  weight: (term: string) => number,
): { shared: number; union: number; smaller: number } {
  const right = new Set(b)
  let shared = 0
  let left = 0
  let theirs = 0
  for (const term of new Set(a)) {
    const w = weight(term)
    left += w
    if (right.has(term)) shared += w
  }
  for (const term of right) theirs += weight(term)
  return { shared, union: left + theirs - shared, smaller: Math.min(left, theirs) }
}

function dot(a: number[], b: number[]): number {
  let sum = 0
  for (let i = 0; i < Math.min(a.length, b.length); i++) sum += (a[i] as number) * (b[i] as number)
  return sum
}
